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
from typing import Optional

import torch

from ..compare.outcomes import DEFAULT_ATOL, DEFAULT_RTOL, verdicts
from ..compare.values import mismatch
from ..core import BadInput, BringupRecord, InternalError, OpByOpMode, StageName
from ..io.arrays import to_numpy
from ..progress import bar as progress_bar
from ..records.results import OpByOpReport, OpRow
from ..tt.interp import PRODUCER as INTERPRETER, InterpreterBug, ProgramFault, Unsupported, interpret, why_not
from ..tt.program import BOOKKEEPING_OPS, Program, ProgramError, parse_program
from ..tt.sim.executor import (DEFAULT_TIMEOUT_S as SIM_TIMEOUT_S, PRODUCER as SIMULATOR, NotSimulated,
                               SimulatedOps, simulate)

PCC_FROM = "ttsim against ttbench's interpreter of the same TTNN program"
MAX_RESTARTS = 50  # isolated: fresh children after simulator aborts, before the rest is given up


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
    ops = [p for p in program.ops() if p.name not in BOOKKEEPING_OPS]
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
                row.error = mismatch(check, pcc)
        if op.index in done.simulated.values and op.index in done.host_ops:
            row.note = "computed on the host: the ttnn wheel lacks this op"
        if done.mode == OpByOpMode.CHAINED and first is None and row.pcc is not None and not row.ok:
            first = row
        rows.append(row)
    return OpByOpReport(model=b.model_name, stage=StageName.TTNN, device="ttsim", mode=done.mode, min_pcc=pcc,
                        rows=rows, total_ops=len(rows), seconds=0.0, first_divergence=first, frontend=b.frontend)


def producers() -> tuple:
    """(reference, simulated): what computed each side of a ttnn -> ttsim comparison."""
    return INTERPRETER, SIMULATOR
