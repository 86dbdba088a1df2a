"""The TTNN program op by op on Tenstorrent's simulator, against ttbench's interpreter of the same program.

Both executors walk one program model (tt/program.py), so their ops are the same records: no matching by source
line is needed, op #i of one is op #i of the other. What differs is the arithmetic: the interpreter computes each
op in torch as ttnn documents it; the simulator runs ttnn's own kernels (bf16 packing, math fidelity, SFPU
approximations). An op whose simulated value drifts from the interpreter's is where the device's arithmetic, not
the compiler, loses precision.

isolated: every op on the interpreter's values of its operands (each op's error is its own); a simulator abort is
          that op's row, and the ops after it run in a fresh child.
chained:  the program as the chip would run it, each op on the simulated values before it (errors accumulate);
          after an abort nothing later has a value, and the rows say so.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional

import torch

from ..core import REPORT_BUGS, BadInput, BringupRecord, InternalError, OpByOpMode, OpOutcome, Reached, StageName
from ..io.arrays import to_numpy
from ..progress import bar as progress_bar
from ..records.results import OpByOpReport, OpRow, OutputCheck
from ..tt.interp import PRODUCER as INTERPRETER, InterpreterBug, ProgramFault, Unsupported, interpret, why_not
from ..tt.program import Program, ProgramError, ProgramOp, parse_program
from ..tt.sim.executor import (DEFAULT_TIMEOUT_S as SIM_TIMEOUT_S, PRODUCER as SIMULATOR, NotSimulated, Simulated,
                               simulate)
from .compare import compare

# Ops with no value of their own to compare: bookkeeping and const-eval call sites (their callees' ops are run).
_NOT_RUN = ("ttnn.deallocate", "ttcore.load_cached", "ttnn.get_device")
PCC_FROM = "ttsim against ttbench's interpreter of the same TTNN program"
# A simulated op's value agrees with the interpreter's when its PCC reaches the threshold and it is allclose at these
# tolerances (bf16 kernels against the IR's arithmetic), unless the caller gives its own.
DEFAULT_ATOL = DEFAULT_RTOL = 1e-2
MAX_RESTARTS = 50  # isolated: fresh children after simulator aborts, before the rest is given up


class SimulatedOps:
    """One op-by-op pass: the program, the interpreter's results, the simulator's per-op values and how each op
    ended (a value, ttnn's refusal, a simulator abort, or not reached)."""

    def __init__(self, program: Program, interpreted: dict, mode: str):
        self.program, self.interpreted, self.mode = program, interpreted, mode
        self.values: dict = {}
        self.seconds: dict = {}
        self.host_ops: set = set()
        self.refused: dict = {}  # op index -> what ttnn said
        self.internal: dict = {}  # op index -> the replay's own failure (ttbench's bug)
        self.aborted: dict = {}  # op index -> what the simulator said when it stopped there
        self.stopped_at: Optional[int] = None  # chained: the abort after which nothing has a value

    def add(self, run: Simulated) -> None:
        self.values.update(run.values)
        self.seconds.update(run.op_seconds)
        self.host_ops.update(run.host_ops)
        self.refused.update(run.op_errors)
        self.internal.update(run.internal_errors)
        if run.aborted_at is not None:
            (self.refused if run.refused else self.aborted)[run.aborted_at] = run.abort_line

    def failure(self, index: int) -> Optional[tuple]:
        """(how far the op got, what stopped it) for an op that gave no value because something stopped it: the
        replay's own bug, a simulator abort (the op reached the simulator) or ttnn's refusal; None otherwise."""
        if index in self.internal:
            return Reached.TTNN, f"internal error in ttbench's ttsim replay: {self.internal[index]} ({REPORT_BUGS})"
        if index in self.aborted:
            return Reached.TTSIM, f"the simulator aborted: {self.aborted[index]}"
        if index in self.refused:
            return Reached.TTNN, f"ttnn refused it: {self.refused[index]}"
        return None


@dataclass
class OpVerdict:
    """How one op of the program ended in a replay, with its value's check against the interpreter's."""
    op: ProgramOp
    outcome: OpOutcome
    furthest: Reached  # TTSIM: the simulator ran it; TTNN: it never ran there
    detail: str = ""  # what stopped it, or why there is nothing to compare
    check: Optional[OutputCheck] = None  # COMPARED: its value against the interpreter's


def verdicts(done: SimulatedOps, min_pcc: float, atol: float = DEFAULT_ATOL,
             rtol: float = DEFAULT_RTOL) -> list[OpVerdict]:
    """Every op of the replayed program that has a value of its own, in program order, with its outcome: the one
    place a replay's ops are classified, so the op-by-op report and the stage comparison list the same ops."""
    out = []
    for p in done.program.ops():
        if p.name in _NOT_RUN:
            continue
        index = p.op.index
        failure = done.failure(index)
        if failure is not None:
            outcome = OpOutcome.INTERNAL if index in done.internal else \
                OpOutcome.ABORTED if index in done.aborted else OpOutcome.REFUSED
            out.append(OpVerdict(p, outcome, furthest=failure[0], detail=failure[1]))
        elif index in done.values:
            reference = done.interpreted.get(index)
            if not reference or not isinstance(reference[0], torch.Tensor):
                out.append(OpVerdict(p, OpOutcome.NO_VALUE, Reached.TTSIM, "the interpreter recorded no value for this op"))
            else:
                check = compare(done.values[index], to_numpy(reference[0]), atol, rtol, min_pcc)
                out.append(OpVerdict(p, OpOutcome.COMPARED, Reached.TTSIM, check=check))
        elif done.stopped_at is not None:
            out.append(OpVerdict(p, OpOutcome.NOT_REACHED, Reached.TTNN,
                                 f"not run: the replay stopped at op #{done.stopped_at}"))
        else:
            out.append(OpVerdict(p, OpOutcome.NO_VALUE, Reached.TTNN, "no value: the op produced no tensor"))
    return out


def _program_and_results(b: BringupRecord) -> tuple:
    if StageName.TTNN not in b.stages:
        raise BadInput(f"this {b.frontend} bringup has no ttnn stage (bring it up with tt=True)")
    s = b.stages[StageName.TTNN]
    if not s.ok:
        raise BadInput(f"op by op on the simulator runs the TTNN program, and ttnn did not compile: {s.error}")
    try:
        program = parse_program(StageName.TTNN, s.full_text())  # the text as it is now: a user's edit included
        run = interpret(program, list(b.argument_values), record=True)
    except Unsupported as exc:
        raise BadInput(f"op by op on the simulator compares each op with ttbench's interpreter, which cannot run "
                       f"this program: {exc}") from exc
    except ProgramFault as exc:
        raise BadInput(f"op by op on the simulator compares each op with ttbench's interpreter: {why_not(exc)}") \
            from exc
    except (InterpreterBug, ProgramError) as exc:
        raise InternalError(str(why_not(exc))) from exc
    return program, run


def _seeds(program: Program, arguments: list, results: dict) -> dict:
    """(function, SSA name) -> the interpreter's value: main's arguments, every op's results, and each const-eval
    function's arguments as its call site passed them."""
    main = program.main
    seeds = {(main.name, name): to_numpy(v) for name, v in zip(main.arguments, arguments)}
    for fn in program.functions.values():
        for op in fn.ops:
            for name, value in zip(op.results, results.get(op.op.index, ())):
                if isinstance(value, torch.Tensor):
                    seeds[(fn.name, name)] = to_numpy(value)
    for fn in program.functions.values():
        for op in fn.ops:
            if op.name == "ttcore.load_cached" and op.callee in program.functions:
                callee = program.functions[op.callee]
                for operand, argument in zip(op.operands, callee.arguments):
                    if (fn.name, operand) in seeds:
                        seeds[(callee.name, argument)] = seeds[(fn.name, operand)]
    return seeds


def simulate_ops(b: BringupRecord, mode: str = "isolated", timeout: Optional[float] = None,
                 progress: bool = True) -> SimulatedOps:
    """Run the TTNN program's ops on the simulator (see module doc). Raises BadInput, NotSimulated."""
    if mode not in tuple(OpByOpMode):
        raise BadInput(f"unknown op-by-op mode {mode!r}: choose one of {', '.join(OpByOpMode)}")
    program, interpreted = _program_and_results(b)
    result = SimulatedOps(program, interpreted.results, mode)
    ops = [p for p in program.ops() if p.name not in _NOT_RUN]
    arguments = [to_numpy(v) for v in b.argument_values]
    with progress_bar(len(ops), f"{b.model_name} ttnn ops on ttsim", progress) as bar:
        tick = lambda index: bar.update(1)  # noqa: E731
        if mode == OpByOpMode.CHAINED:
            run = simulate(program, arguments, record=True, on_op=tick, timeout=timeout or SIM_TIMEOUT_S)
            result.add(run)
            stops = [run.aborted_at] if run.aborted_at is not None else list(run.internal_errors)
            result.stopped_at = stops[0] if stops else None
            return result
        seeds = _seeds(program, list(b.argument_values), interpreted.results)
        skip = None
        for _ in range(MAX_RESTARTS + 1):
            run = simulate(program, arguments, seed=seeds, skip_through=skip, on_op=tick,
                           timeout=timeout or SIM_TIMEOUT_S)
            result.add(run)
            if run.aborted_at is None:
                break
            bar.update(1)
            skip = run.aborted_at  # the rest in a fresh child
        else:
            result.stopped_at = skip
    return result


def simulator_op_by_op(b: BringupRecord, mode: str = "isolated", pcc: float = 0.99, atol: float = DEFAULT_ATOL,
                       rtol: float = DEFAULT_RTOL, timeout: Optional[float] = None,
                       progress: bool = True) -> OpByOpReport:
    """Every op of the TTNN program on the simulator, each compared with the interpreter's value of that op."""
    t0 = time.perf_counter()
    try:
        done = simulate_ops(b, mode, timeout, progress)
    except NotSimulated as exc:
        raise BadInput(f"device 'ttsim' cannot run ops here: {exc}") from exc
    report = op_by_op_report(b, done, pcc, atol, rtol)
    report.seconds = time.perf_counter() - t0
    return report


def op_by_op_report(b: BringupRecord, done: SimulatedOps, pcc: float, atol: float = DEFAULT_ATOL,
                    rtol: float = DEFAULT_RTOL) -> OpByOpReport:
    """One replay as an op-by-op report: a row per op `verdicts` classifies."""
    rows: list[OpRow] = []
    first = None
    for verdict in verdicts(done, pcc, atol, rtol):
        p, op = verdict.op, verdict.op.op
        row = OpRow(index=len(rows), op=op.name, count=1,
                    inputs=[f"{'x'.join(map(str, t.shape))} {t.element}" for t in p.operand_types if t is not None],
                    locations=[op.location.short] if op.location else [], furthest_stage=verdict.furthest,
                    nodes=[f"#{op.index}"], seconds=done.seconds.get(op.index, 0.0))
        check = verdict.check
        if check is None:
            row.error = verdict.detail
        else:
            row.pcc_from = PCC_FROM
            row.pcc, row.max_abs_error, row.ok = check["pcc"], check["max_abs_error"], check["ok"]
            if not row.ok:
                row.error = check.get("error") or (f"pcc {row.pcc:.6f} below {pcc}" if row.pcc < pcc
                                                   else "not allclose")
        if op.index in done.values and op.index in done.host_ops:
            row.note = "computed on the host: the ttnn wheel lacks this op"
        if done.mode == OpByOpMode.CHAINED and first is None and row.pcc is not None and not row.ok:
            first = row
        rows.append(row)
    return OpByOpReport(model=b.model_name, stage=StageName.TTNN, device="ttsim", mode=done.mode, min_pcc=pcc,
                        rows=rows, total_ops=len(rows), seconds=0.0, first_divergence=first, frontend=b.frontend)


def producers() -> tuple:
    """(reference, simulated): what computed each side of a ttnn -> ttsim comparison."""
    return INTERPRETER, SIMULATOR
