"""How each op of a simulator replay ended: the one place a replay's ops are classified (compared, refused,
aborted, internal, not reached, no value), so the op-by-op report and the ttnn -> ttsim stage comparison list the
same ops with the same verdicts."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import torch

from ..core import REPORT_BUGS, OpOutcome, Reached
from ..io.arrays import to_numpy
from ..records.results import OutputCheck
from ..tt.program import BOOKKEEPING_OPS, ProgramOp
from ..tt.sim.executor import SimulatedOps
from .values import compare

# Ops with no value of their own to compare: bookkeeping and const-eval call sites (their callees' ops are run).
# A simulated op's value agrees with the interpreter's when its PCC reaches the threshold and it is allclose at these
# tolerances (bf16 kernels against the IR's arithmetic), unless the caller gives its own.
DEFAULT_ATOL = DEFAULT_RTOL = 1e-2


@dataclass
class OpVerdict:
    """How one op of the program ended in a replay, with its value's check against the interpreter's."""
    op: ProgramOp
    outcome: OpOutcome
    furthest: Reached  # TTSIM: the simulator ran it; TTNN: it never ran there
    detail: str = ""  # what stopped it, or why there is nothing to compare
    check: Optional[OutputCheck] = None  # COMPARED: its value against the interpreter's


def _stopped(done: SimulatedOps, index: int) -> Optional[tuple]:
    """(outcome, how far the op got, what stopped it) for an op that gave no value because something stopped it:
    the replay's own bug, a simulator abort (the op reached the simulator) or ttnn's refusal; None otherwise."""
    if index in done.internal:
        return (OpOutcome.INTERNAL, Reached.TTNN,
                f"internal error in ttbench's ttsim replay: {done.internal[index]} ({REPORT_BUGS})")
    if index in done.aborted:
        return OpOutcome.ABORTED, Reached.TTSIM, f"the simulator aborted: {done.aborted[index]}"
    if index in done.refused:
        return OpOutcome.REFUSED, Reached.TTNN, f"ttnn refused it: {done.refused[index]}"
    return None


def verdicts(done: SimulatedOps, min_pcc: float, atol: float = DEFAULT_ATOL,
             rtol: float = DEFAULT_RTOL) -> list[OpVerdict]:
    """Every op of the replayed program that has a value of its own, in program order, with its outcome."""
    out = []
    for p in done.program.ops():
        if p.name in BOOKKEEPING_OPS:
            continue
        index = p.op.index
        stopped = _stopped(done, index)
        if stopped is not None:
            outcome, furthest, detail = stopped
            out.append(OpVerdict(p, outcome, furthest=furthest, detail=detail))
        elif index in done.simulated.values:
            reference = done.interpreted.get(index)
            if not reference or not isinstance(reference[0], torch.Tensor):
                out.append(OpVerdict(p, OpOutcome.NO_VALUE, Reached.TTSIM, "the interpreter recorded no value for this op"))
            else:
                check = compare(done.simulated.values[index][0], to_numpy(reference[0]), atol, rtol, min_pcc)
                out.append(OpVerdict(p, OpOutcome.COMPARED, Reached.TTSIM, check=check))
        elif done.stopped_at is not None:
            out.append(OpVerdict(p, OpOutcome.NOT_REACHED, Reached.TTNN,
                                 f"not run: the replay stopped at op #{done.stopped_at}"))
        else:
            out.append(OpVerdict(p, OpOutcome.NO_VALUE, Reached.TTNN, "no value: the op produced no tensor"))
    return out
