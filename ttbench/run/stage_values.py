"""Every op's value in one run of a stage, for comparing stages op by op (stage_compare.py).

- ttir / ttnn: the compiler's program in ttbench's interpreter, each op's results recorded.
- stablehlo: the stage's module run by the PJRT CPU client with every top-level op's result of @main returned as
  an extra output (a clone of the live module; the stage itself is untouched).
- torchfx: the FX graph torch-mlir imported, run by PyTorch node by node (the torch dialect is its one-to-one
  import, so its values are the graph's); its rows name the FX nodes.
"""
from __future__ import annotations

import numpy as np
import torch

from ..core import PROGRAM_STAGES, REPORT_BUGS, VALUE_STAGES, BadInput, BringupRecord, StageName
from ..io.arrays import to_numpy
from ..ir.walk import main_function, stage_operations
from ..proc.children import ContainedFailure
from ..proc.client import WorkerDied, shared_client
from ..records.values import OpValues
from ..stages.mlir_stage import clone_module, full_text
from ..tt.interp import NOT_INTERPRETED, PRODUCER, interpret, why_not
from ..tt.program import parse_program
from .semantics import fx_node_values
from .whole import interpreter_device, pjrt_text, run_text_on_device, signature_mismatch


class NotRun(Exception):
    """The stage's values could not be had (a failed stage, an op the interpreter does not know, the device
    refused); the message says why. Nothing is compared then."""


def stage_values(b: BringupRecord, stage: str, precision: str = "ir", timeout: float = 600.0) -> OpValues:
    if stage not in VALUE_STAGES:
        raise BadInput(f"compare_stages takes stages among {', '.join(VALUE_STAGES)}, not {stage!r}")
    if stage not in b.stages:
        raise BadInput(f"this {b.frontend} bringup has no {stage!r} stage (stages: {', '.join(b.stages)})")
    s = b.stages[stage]
    if not s.ok:
        raise NotRun(f"{stage} did not compile: {s.error}")
    if stage in PROGRAM_STAGES:
        return _interpreted(b, stage, precision)
    if stage == StageName.STABLEHLO:
        return _stablehlo(b, timeout)
    return _torchfx(b)


def _interpreted(b: BringupRecord, stage: str, precision: str) -> OpValues:
    program, run = _interpret_recorded(b, stage, precision)
    records = {p.op.index: p.op for p in program.ops()}  # the text as it is now (a user's edit included)
    ops = [records[i] for i in run.values]  # recorded in execution order
    values = {i: [to_numpy(v) for v in vs if isinstance(v, torch.Tensor)] for i, vs in run.values.items()}
    after = {i: (kinds, to_numpy(run.results[i][0])) for i, kinds in run.fused.items()}
    return OpValues(stage, f"{interpreter_device(stage)}: {PRODUCER}", ops, values, after)


def _interpret_recorded(b: BringupRecord, stage: str, precision: str = "ir", inputs_of=frozenset()) -> tuple:
    """(the stage's program as its text reads now, its run with every op's value recorded); NotRun says why not."""
    try:
        program = parse_program(stage, b.stages[stage].full_text())
        return program, interpret(program, list(b.argument_values), precision=precision, record=True,
                                  inputs_of=inputs_of)
    except NOT_INTERPRETED as exc:
        raise NotRun(str(why_not(exc))) from exc


def _stablehlo(b: BringupRecord, timeout: float) -> OpValues:
    from torch_mlir import ir

    s = b.stages[StageName.STABLEHLO]
    if s.module is None:
        raise NotRun("the stablehlo stage has no live module to add outputs to (read back from text)")
    mismatch = signature_mismatch(s.module, b.arguments, b.argument_values)
    if mismatch:
        raise NotRun(mismatch)
    module = clone_module(s.module)
    with module.context:
        main = main_function(module)
        operations = stage_operations(module)
        if len(operations) != len(s.ops):
            raise NotRun(f"internal error: the clone has {len(operations)} ops, the stage {len(s.ops)} "
                         f"({REPORT_BUGS})")
        block = main.regions[0].blocks[0]
        ret = block.operations[len(block.operations) - 1]
        picked, extra = [], []
        for index, operation in enumerate(operations):
            if operation.parent.name != "func.func" or s.ops[index].attrs.get("func") != "main":
                continue  # ops inside control flow have no value at the top level
            tensors = [r for r in operation.results if str(r.type).startswith("tensor<")]
            if tensors and not s.ops[index].name.endswith("constant"):
                picked.append((index, len(tensors)))
                extra.extend(tensors)
        operands = list(ret.operands) + extra
        with ir.InsertionPoint(ret), ret.location:
            ir.Operation.create("func.return", operands=operands)
        ret.erase()
        inputs = [a.type for a in block.arguments]
        main.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, [v.type for v in operands]))
        text = pjrt_text(full_text(module))
    first = len(operands) - len(extra)
    try:
        reply = run_text_on_device(shared_client("cpu"), text, [to_numpy(v) for v in b.argument_values], timeout)
    except WorkerDied as exc:
        raise NotRun(f"stablehlo on cpu: {exc}") from exc
    if not reply.get("ok"):
        raise NotRun(f"stablehlo on cpu: {reply.get('error')}")
    arrays = reply["arrays"][first:]
    ops, values, at = [], {}, 0
    for index, count in picked:
        op = s.ops[index]
        ops.append(op)
        values[op.index] = [np.asarray(a) for a in arrays[at:at + count]]
        at += count
    return OpValues(StageName.STABLEHLO, "cpu (XLA, jaxlib's PJRT client): every op's result returned", ops, values)


def _torchfx(b: BringupRecord) -> OpValues:
    if b.fx_graph is None or StageName.FX not in b.stages:
        raise NotRun("torchfx values come from the captured FX graph, which this bringup does not have (an ONNX "
                     "bringup: compare stablehlo, ttir and ttnn)")
    fx_ops = {op.attrs.get("node"): op for op in b.stages[StageName.FX].ops}
    try:
        recorded = fx_node_values(b.fx_graph, b.argument_values, set(fx_ops))
    except ContainedFailure as exc:
        raise NotRun(str(exc)) from exc
    recorded = {name: [to_numpy(t) for t in tensors] for name, tensors in recorded.items()}
    ops = [fx_ops[name] for name in recorded]
    return OpValues(StageName.TORCHFX, "torch (the FX graph torch-mlir imports, run node by node by PyTorch)", ops,
                       {fx_ops[name].index: v for name, v in recorded.items()})


def divergence_values(b: BringupRecord, stage: str, index: int, earlier: str, reference_index: int) -> dict:
    """The arrays a reproduction of one diverging op needs: its operands and its value as ttbench's interpreter
    computes them in `stage` (and its value after fused activations, where it has them), and the value of the
    earlier stage's op it was compared with. bf16 values are widened to f32 (npz cannot hold bf16); the dtypes
    the IR gives are kept under "dtypes"."""
    _, run = _interpret_recorded(b, stage, inputs_of=frozenset({index}))
    arrays: dict = {}
    dtypes: dict = {}

    def keep(name, tensor):
        dtypes[name] = str(tensor.dtype).replace("torch.", "")
        arrays[name] = to_numpy(tensor.float() if tensor.dtype == torch.bfloat16 else tensor)

    for i, operand in enumerate(run.inputs.get(index, [])):
        if isinstance(operand, torch.Tensor):
            keep(f"operand_{i}", operand)
    if index in run.values:
        keep(f"{stage}_value", run.values[index][0])
    if index in run.fused:
        keep(f"{stage}_value_after_{'_'.join(run.fused[index])}", run.results[index][0])
    reference = stage_values(b, earlier)
    for op in reference.ops:
        if op.index == reference_index:
            arrays[f"{earlier}_value"] = reference.of(op)[0]
            dtypes[f"{earlier}_value"] = str(arrays[f"{earlier}_value"].dtype)
    return {"arrays": arrays, "dtypes": dtypes}
