"""Semantic changes the interpreter can prove: a TTNN op whose printed form leaves a choice (ttnn.gelu has no
approximation attribute; nor has a gelu fused into a binary op's `activations`, conv2d_config's `activation` or a
matmul's `activation = "gelu"`) computed under every reading (`tt.interp.READINGS`, `ACTIVATION_READINGS`) on the
value it gets in the program, against what PyTorch computes there (the value of its source line in the captured FX
graph, run by PyTorch, or of a gelu node of the graph: a fused activation may come from another line; for an ONNX
bringup, the file's own graph run by onnxruntime). When the documented reading — the one the interpreter uses —
misses that value beyond tolerance and another reading matches it, the compiler changed what the line means: a
`semantic` finding with both errors.

It executes (the interpreter, the FX graph in a fork, onnxruntime), so it lives with the other runs, not among the
pure analyses; pipeline.Bringup.findings hands it to analysis.collect.analyze as one more step.

Runs only where it can: a TTNN stage that compiled, an op with readings in it, a captured FX graph (export or
dynamo) or an ONNX model, and real values (not the meta device). Otherwise it finds nothing and says nothing.
"""
from __future__ import annotations

import torch
import torch.fx

from .. import core
from ..compare.readings import other_reading
from ..core import BringupRecord, FindingKind, Op, StageName
from ..io.arrays import to_numpy
from ..proc.children import ContainedFailure, call_in_fork
from ..stages.onnx_prepare import graph_inputs
from ..tt.interp import ACTIVATION_READINGS, ACTIVATIONS, NotInterpreted, READINGS, interpret_text
from ..records.findings import Finding


def fx_node_values(graph, arguments: list, nodes=None) -> dict:
    """node name -> tensor results of every call_function node of `graph` (those named in `nodes`, when given),
    run by PyTorch on `arguments` in a forked child: the graph's ops are the user's too, and an abort or a hang
    there must not take the caller with it (children.ContainedFailure says how it ended)."""
    return call_in_fork(lambda: _record(graph, arguments, nodes), core.EAGER_TIMEOUT_S,
                        "the FX graph, run by PyTorch node by node,")


def onnx_node_values(model, inputs: list, nodes) -> dict:
    """node name -> tensor results of the ONNX `model`'s nodes named in `nodes`, run by onnxruntime on `inputs`
    (the graph's own inputs, in order) with those outputs added, in a forked child (as fx_node_values)."""
    return call_in_fork(lambda: _record_onnx(model, inputs, nodes), core.EAGER_TIMEOUT_S,
                        "the ONNX model, run by onnxruntime with its nodes' outputs,")


def _record_onnx(model, inputs: list, nodes) -> dict:
    import onnx  # lazy: only an ONNX bringup's semantic check runs it
    import onnxruntime

    inferred = onnx.shape_inference.infer_shapes(model)
    typed = {v.name: v for v in list(inferred.graph.value_info) + list(inferred.graph.output)}
    probe = onnx.ModelProto()
    probe.CopyFrom(inferred)
    wanted = {}
    for node in probe.graph.node:
        if node.name in nodes:
            wanted[node.name] = [o for o in node.output if o in typed]
    del probe.graph.output[:]
    names = [o for outs in wanted.values() for o in outs]
    probe.graph.output.extend(typed[o] for o in names)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1  # a forked child: no thread pool to fight the parent's over the cores
    options.log_severity_level = 3
    session = onnxruntime.InferenceSession(probe.SerializeToString(), options, providers=["CPUExecutionProvider"])
    arrays = session.run(names, {i.name: to_numpy(v) for i, v in zip(graph_inputs(probe), inputs)})
    by_output = dict(zip(names, arrays))
    return {node: [torch.from_numpy(by_output[o].copy()) for o in outs] for node, outs in wanted.items() if outs}


def _record(graph, arguments: list, nodes) -> dict:
    recorded: dict = {}

    class Recorder(torch.fx.Interpreter):
        def run_node(self, n):
            out = super().run_node(n)
            if n.op == "call_function" and (nodes is None or n.name in nodes):
                leaves = out if isinstance(out, (tuple, list)) else [out]
                tensors = [t.detach().clone() for t in leaves if isinstance(t, torch.Tensor)]
                if tensors:
                    recorded[n.name] = tensors
            return out

    with torch.no_grad():
        Recorder(graph).run(*[v.clone() for v in arguments])
    return recorded


def _reference_candidates(op: Op, fx_ops: list, values: dict, numel: int, kinds: set) -> list:
    """(FX op, value) candidates for what PyTorch computes where `op` (or its fused activation of one of `kinds`)
    computes: the values of its source line (its module's first), then every FX node of those kinds."""
    at_line = [f for f in fx_ops if f.location is not None and op.location is not None
               and (f.location.file, f.location.line) == (op.location.file, op.location.line)
               and f.attrs.get("node") in values and values[f.attrs["node"]][0].numel() == numel]
    same_module = [f for f in at_line if f.module == op.module]
    of_kind = [f for f in fx_ops if f.attrs.get("node") in values and _fx_kind(f) in kinds
               and values[f.attrs["node"]][0].numel() == numel]
    chosen = (same_module or at_line)[-1:] + of_kind
    return [(f, values[f.attrs["node"]][0]) for f in chosen]


def _fx_kind(fx_op: Op) -> str:
    """`aten.gelu.default` -> "gelu"; `onnx.Gelu` -> "gelu"."""
    parts = fx_op.name.split(".")
    return (parts[1] if len(parts) > 2 else parts[-1]).lower()


def _reading_sites(ttnn, run) -> list:
    """(op, documented readings, the value the reading applies to, where) for every bare op and every fused
    activation whose kind leaves a choice."""
    sites = []
    for index, inputs in run.inputs.items():
        sites.append((ttnn.ops[index], READINGS[ttnn.ops[index].name], inputs[0], ""))
    for index, kinds in run.fused.items():
        value = run.values[index][0]
        for kind in kinds:
            if kind in ACTIVATION_READINGS:
                sites.append((ttnn.ops[index], ACTIVATION_READINGS[kind], value, f" (its fused {kind})"))
            value = ACTIVATIONS[kind](value)
    return sites


def _mentions_a_reading(ttnn) -> bool:
    """A cheap gate before any run: the stage has an op or a fused activation that leaves a choice."""
    return any(op.name in READINGS or any(kind in op.text for kind in ACTIVATION_READINGS) for op in ttnn.ops)


def semantic_findings(b: BringupRecord) -> tuple:
    ttnn = b.stages.get(StageName.TTNN)
    source = b.stages.get(StageName.FX) if b.fx_graph is not None else b.stages.get(StageName.ONNX)
    if ttnn is None or not ttnn.ok or source is None or not source.ok or not _mentions_a_reading(ttnn) or \
            b.missing_values():
        return [], {}
    try:
        run = interpret_text(StageName.TTNN, ttnn.full_text(), list(b.argument_values), record=True)
        sites = _reading_sites(ttnn, run)
        if not sites:
            return [], {}
        lines = {(op.location.file, op.location.line) for op, *_ in sites if op.location}
        kinds = {"gelu"}
        needed = {f.attrs.get("node") for f in source.ops if (f.location and (f.location.file, f.location.line)
                                                                in lines) or _fx_kind(f) in kinds}
        if b.fx_graph is not None:
            values = fx_node_values(b.fx_graph, b.argument_values, needed)
        else:  # an ONNX bringup: PyTorch's role is played by onnxruntime on the file's own graph
            values = onnx_node_values(source.module, list(b.example_inputs), needed)
    except (NotInterpreted, ContainedFailure):
        return [], {}  # the run says why (b.run("ttnn", device="cpu")); no semantic claim without values
    fx = source
    reader = "PyTorch" if b.fx_graph is not None else "onnxruntime"
    findings = []
    for op, readings, source, where_fused in sites:
        candidates = _reference_candidates(op, fx.ops, values, source.numel(), kinds)
        found = None
        for fx_op, reference in candidates:
            reference = reference.reshape(source.shape).double()
            errors = {name: float((fn(source).double() - reference).abs().max()) for name, fn in readings.items()}
            if found is None or min(errors.values()) < min(found[1].values()):
                found = (fx_op, errors, reference)
        if found is None:
            continue
        fx_op, errors, reference = found
        documented = next(iter(errors))
        best = other_reading(errors, documented, float(reference.abs().max()))
        if best is None:
            continue
        where = f" (module {op.module})" if op.module else ""
        text = "; ".join(f"read as {name}: max |error| {err:.3g}" for name, err in errors.items())
        findings.append(Finding(
            kind=FindingKind.SEMANTIC, stage=StageName.TTNN, op=op.name, location=op.location,
            message=(f"{op.name}{where_fused}{where} does not compute what its source computes in {reader} "
                     f"({fx_op.name}): {text}. The interpreter uses the documented reading ({documented}); "
                     f"{reader} matches the {best} reading, so the compiler changed the op's meaning"),
            details={"index": op.index, "readings": errors, "used": documented, "matches": best,
                     "fused": where_fused.strip(" ()") or None,
                     "reference_op": fx_op.name, "reference_node": fx_op.attrs.get("node")}))
    return findings, {}
