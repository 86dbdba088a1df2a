"""Whole-graph runs: one stage of a Bringup on one device, compared output by output with the golden."""
from __future__ import annotations

import os
from typing import Optional

import numpy as np
import torch

from ..compare.values import compare
from ..core import PROGRAM_STAGES, REPORT_BUGS, RUNNABLE_STAGES, BadInput, BringupRecord, StageName
from ..io.arrays import to_numpy
from ..ir.text import inline_resources, legalize_for_tt
from ..ir.walk import main_function
from ..proc.array_files import load_arrays, save_arrays
from ..proc.children import ContainedFailure, in_disposable_job
from ..proc.client import WorkerClient, WorkerDied, shared_client
from ..proc.scratch import temp_folder
from ..progress import bar as progress_bar
from ..tt.interp import NotInterpreted, PRECISIONS, PRODUCER, interpret_text
from ..tt.program import ProgramError, ProgramUnreadable, parse_program
from ..tt.sim.executor import DEFAULT_TIMEOUT_S as SIM_TIMEOUT_S, PRODUCER as SIM_PRODUCER, NotSimulated, simulate
from .devices import device as find_device
from .golden import NondeterministicGolden, captured_graph_outputs, golden_outputs
from .worker import run_here
from ..records.results import RunResult

DEFAULT_TIMEOUT_S = 600.0


def pjrt_text(stablehlo_text: str) -> str:
    """torch-mlir's StableHLO as XLA takes it: weights as dense elements, no stray arith constants."""
    return legalize_for_tt(inline_resources(stablehlo_text))


def run_text_on_device(client: WorkerClient, text: str, inputs: list, timeout: float, keep: bool = False) -> dict:
    """Compile and run StableHLO text in the worker; the reply plus "arrays" (numpy outputs) when it ran.
    `keep`: the worker keeps the executable for the next run of the same text."""
    with temp_folder("ttbench-run-") as tmp:
        module, feeds, results = (os.path.join(tmp, n) for n in ("module.mlir", "inputs.npz", "outputs.npz"))
        with open(module, "w") as f:
            f.write(text)
        save_arrays(feeds, inputs, "arg")
        reply = client.request({"kind": "run", "module": module, "inputs": feeds, "outputs": results, "keep": keep},
                               timeout)
        if reply.get("ok"):
            reply["arrays"] = load_arrays(results, "out")
        return reply


def _validate(b: BringupRecord, stage: str) -> None:
    if stage not in RUNNABLE_STAGES:
        raise BadInput(f"cannot run stage {stage!r}: choose one of {', '.join(RUNNABLE_STAGES)}")
    if stage not in b.stages:
        raise BadInput(f"this {b.frontend} bringup has no {stage!r} stage (stages: {', '.join(b.stages)})")


_ELEMENT_TYPES = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16", "int64": "i64",
                  "int32": "i32", "int16": "i16", "int8": "i8", "uint8": "ui8", "bool": "i1"}


def signature_mismatch(module, arguments: list, values: list) -> Optional[str]:
    """What does not fit between the tensors to feed and @main's parameters (count, shape, element type), naming
    the argument; None when they fit or there is no live module to check against."""
    if module is None:
        return None
    from torch_mlir import ir

    main = main_function(module)
    if main is None:
        return None
    params = list(main.regions[0].blocks[0].arguments)
    if len(params) != len(values):
        return f"@main takes {len(params)} arguments, {len(values)} tensors were recorded to feed it"
    for i, (param, value, info) in enumerate(zip(params, values, arguments)):
        shaped = ir.ShapedType(param.type)
        element = _ELEMENT_TYPES.get(str(value.dtype).replace("torch.", ""))
        shape = tuple(shaped.shape) if shaped.has_static_shape else None
        want = f"{'x'.join(map(str, shape)) if shape else '?'} {shaped.element_type}"
        have = f"{'x'.join(map(str, value.shape))} {element}"
        if (shape is not None and shape != tuple(value.shape)) or (element and element != str(shaped.element_type)):
            return f"argument {i} ({info.name}) is {have} but @main's parameter {i} is {want}"
    return None


def interpreter_device(stage: str) -> str:
    """How an interpreted run names its device: the CPU, with the semantics it executes."""
    return f"cpu · {stage.upper()} semantics"


def run_stage(b: BringupRecord, stage: str = "stablehlo", device: str = "cpu", atol: float = 1e-2, rtol: float = 1e-2,
              pcc: float = 0.99, timeout: Optional[float] = None, expected=None,
              precision: str = "ir") -> RunResult:
    _validate(b, stage)
    if timeout is None:
        timeout = SIM_TIMEOUT_S if device == "ttsim" else DEFAULT_TIMEOUT_S
    if precision not in PRECISIONS:
        raise BadInput(f"unknown precision {precision!r}: choose one of {', '.join(PRECISIONS)}")
    if precision != "ir" and not (stage in PROGRAM_STAGES and device == "cpu"):
        raise BadInput(f"precision={precision!r} rounds the interpreter's results: it applies to ttir/ttnn on "
                       f"device='cpu' only")
    if expected is not None:
        if isinstance(expected, (np.ndarray, torch.Tensor)):
            expected = [expected]
        expected = [to_numpy(e) if isinstance(e, torch.Tensor) else np.asarray(e) for e in expected]
    if stage in PROGRAM_STAGES and device == "cpu":
        return _run_interpreted(b, stage, atol, rtol, pcc, expected, precision)
    if device == "ttsim":
        if stage != StageName.TTNN:
            raise BadInput(f"device='ttsim' replays the TTNN program as ttnn calls; {stage!r} is not one (use "
                           f"stage='ttnn', or device='cpu' for ttbench's interpreter)")
        return _run_simulated(b, atol, rtol, pcc, expected, timeout)
    result = RunResult(model=b.model_name, stage=stage, device=device if stage != StageName.FX else "torch-cpu",
                       executed=False, ok=False, message="", atol=atol, rtol=rtol, min_pcc=pcc)
    s = b.stages[stage]
    if not s.ok:
        result.message = f"{stage} did not compile: {s.error}"
        return result
    if stage == StageName.FX:
        try:
            arrays = _run_fx(b)
        except ContainedFailure as exc:
            result.message = f"fx: {exc}"
            return result
    else:
        dev = find_device(device)
        if stage in PROGRAM_STAGES and dev.name != "tt":
            raise BadInput(f"the {stage} stage runs on a Tenstorrent device (device='tt') or, interpreted by "
                           f"ttbench, on device='cpu'; not {device!r}")
        if not dev.usable:
            result.message = dev.reason
            return result
        mismatch = signature_mismatch(b.stages[StageName.STABLEHLO].module if StageName.STABLEHLO in b.stages else None,
                                      b.arguments, b.argument_values)
        if mismatch:  # never feed buffers to the wrong parameters: that ran to a silent NaN once
            result.message = f"not run: {mismatch}"
            return result
        if dev.name == "tt":  # the plugin compiles the StableHLO it was handed at the ttir stage (roles marked)
            text = (b.stages[StageName.TTIR].artifacts.get("ttir.input.stablehlo.mlir")
                    if StageName.TTIR in b.stages else None)
            text = text or legalize_for_tt(b.stages[StageName.STABLEHLO].full_text())
        else:
            text = pjrt_text(s.full_text())
        inputs = [to_numpy(v) for v in b.argument_values]
        try:
            reply = (run_here(text, inputs) if dev.name == "cpu" and in_disposable_job() else
                     run_text_on_device(shared_client(dev.name), text, inputs, timeout))
        except WorkerDied as exc:
            result.message = f"{stage} on {device}: {exc}"
            return result
        if not reply.get("ok"):
            result.message = f"{stage} on {device}: {reply.get('error')}"
            return result
        arrays = reply["arrays"]
        result.compile_seconds, result.run_seconds = reply["compile_seconds"], reply["run_seconds"]
    return _compare_with_golden(b, result, arrays, expected)


def _compare_with_golden(b: BringupRecord, result: RunResult, arrays: list, expected) -> RunResult:
    """Fill `result` with the comparison of `arrays` (what ran) against the golden, output by output."""
    atol, rtol, pcc = result.atol, result.rtol, result.min_pcc
    result.executed = True
    result.arrays = list(arrays)
    try:
        golden, result.golden = (expected, "the expected outputs given") if expected is not None else golden_outputs(b)
    except (ContainedFailure, NondeterministicGolden) as exc:  # the device ran; no reference to compare with
        result.message = f"no comparison: {exc}"
        return result
    except Exception as exc:  # the reference itself refused (the user's model raised, both ONNX runtimes failed)
        result.message = f"no comparison: the golden failed: {type(exc).__name__}: {str(exc).strip()[:300]}"
        return result
    result.golden_arrays = list(golden)
    if len(arrays) != len(golden):
        result.message = f"{len(arrays)} outputs, the golden has {len(golden)}"
        return result
    if not golden:
        result.message = "nothing compared: the model returns no tensor"
        return result
    result.outputs = [compare(a, g, atol, rtol, pcc) for a, g in zip(arrays, golden)]
    failed = [i for i, o in enumerate(result.outputs) if not o["ok"]]
    result.ok = not failed
    worst = min(o["pcc"] for o in result.outputs)
    result.message = (f"{len(result.outputs)} output(s) match (min pcc {worst:.6f})" if not failed else
                      f"output(s) {', '.join(map(str, failed))} differ (min pcc {worst:.6f}, "
                      f"threshold {pcc}, atol {atol}, rtol {rtol})")
    return result


def _run_interpreted(b: BringupRecord, stage: str, atol, rtol, pcc, expected, precision: str) -> RunResult:
    """The stage's own program, executed op by op by ttbench's interpreter on the CPU."""
    result = RunResult(model=b.model_name, stage=stage, device=interpreter_device(stage), executed=False, ok=False,
                       message="", atol=atol, rtol=rtol, min_pcc=pcc, produced_by=PRODUCER, precision=precision)
    s = b.stages[stage]
    if not s.ok:
        result.message = f"not run: {stage} did not compile: {s.error}"
        return result
    try:
        run = interpret_text(stage, s.full_text(), list(b.argument_values), precision=precision)
    except NotInterpreted as exc:
        result.message = f"not run: {exc}"
        return result
    result.run_seconds = run.seconds
    return _compare_with_golden(b, result, [to_numpy(t) for t in run.outputs], expected)


def simulator_device() -> str:
    return "ttsim · simulated Blackhole"


def _run_simulated(b: BringupRecord, atol, rtol, pcc, expected, timeout) -> RunResult:
    """The TTNN program replayed as ttnn calls on Tenstorrent's simulator (tt/sim)."""
    result = RunResult(model=b.model_name, stage=StageName.TTNN, device=simulator_device(), executed=False, ok=False,
                       message="", atol=atol, rtol=rtol, min_pcc=pcc, produced_by=SIM_PRODUCER)
    s = b.stages[StageName.TTNN]
    if not s.ok:
        result.message = f"not run: ttnn did not compile: {s.error}"
        return result
    try:
        program = parse_program(StageName.TTNN, s.full_text())  # the text as it is now: a user's edit included
    except ProgramUnreadable as exc:
        result.message = f"not run: {exc}"
        return result
    except ProgramError as exc:
        result.message = f"not run: internal error in ttbench's TTNN reader: {exc} ({REPORT_BUGS})"
        return result
    main = program.main
    values = list(b.argument_values)
    wrong = [f"argument {i} is {tuple(v.shape)}, @{main.name}'s parameter {i} is {t}"
             for i, (v, t) in enumerate(zip(values, main.argument_types))
             if t is not None and tuple(v.shape) != t.shape]
    if len(values) != len(main.arguments) or wrong:  # never feed values to the wrong parameters
        result.message = (f"not run: {wrong[0]}" if wrong else f"not run: @{main.name} takes {len(main.arguments)} "
                          f"arguments, the bringup has {len(values)}")
        return result
    steps = sum(op.name != "ttnn.deallocate" for op in program.ops())
    try:
        with progress_bar(steps, "ttnn on ttsim") as shown:
            run = simulate(program, [to_numpy(v) for v in b.argument_values], timeout=timeout,
                           on_op=lambda index: shown.update(1))
    except NotSimulated as exc:
        result.message = f"not run: {exc}"
        return result
    by_index = {p.op.index: p.op for p in program.ops()}
    if run.internal_errors:
        index, message = next(iter(run.internal_errors.items()))
        op = by_index.get(index)
        result.message = (f"not run: internal error in ttbench's ttsim replay at op #{index} "
                          f"({op.name if op else '?'}): {message} ({REPORT_BUGS})")
        return result
    if not run.finished:
        op = by_index.get(run.aborted_at)
        where = f" at {op.location}" if op is not None and op.location else ""
        what = "ttnn refused" if run.refused else "the simulator stopped at"
        result.message = f"{what} op #{run.aborted_at} ({op.name if op else '?'}{where}): {run.abort_line}"
        return result
    result.run_seconds = run.run_seconds
    _compare_with_golden(b, result, run.outputs or [], expected)
    if run.sharded:
        result.message += f"; {run.sharded} op results placed sharded, as the program's layouts state"
    if run.host_ops:
        names = sorted({by_index[i].name for i in run.host_ops})
        result.message += f"; {len(run.host_ops)} op(s) computed on the host, not the simulator: {', '.join(names)}"
    return result


def _run_fx(b: BringupRecord) -> list:
    """The captured graph (the one torch-mlir imports) run by PyTorch: catches decomposition errors."""
    if b.fx_graph is None:
        raise BadInput("no FX graph was captured for this bringup")
    return captured_graph_outputs(b, "the FX graph, run by PyTorch,")
