"""Semantic changes the interpreter can prove: a TTNN op whose printed form leaves a choice (ttnn.gelu has no
approximation attribute) computed under every reading (`tt.interp.READINGS`) on the inputs it gets in the program,
against what its source line computes in PyTorch (the last value of that line in the captured FX graph, run by
PyTorch). When the documented reading — the one the interpreter uses — misses the line's value beyond tolerance and
another reading matches it, the compiler changed what the line means: a `semantic` finding with both errors.

Runs only where it can: a TTNN stage that compiled, an op with readings in it, a captured FX graph (export or
dynamo) and real values (not the meta device). Otherwise it finds nothing and says nothing.
"""
from __future__ import annotations

import torch
import torch.fx

from .. import core
from ..core import FindingKind, Op, StageName
from ..proc.children import ContainedFailure, call_in_fork
from ..tt.interp import NotInterpreted, READINGS, interpret_text
from .findings import Finding

# An error this far below the documented reading's is "the other reading matches".
_CLEARLY_CLOSER = 10.0


def fx_node_values(graph, arguments: list, nodes=None) -> dict:
    """node name -> tensor results of every call_function node of `graph` (those named in `nodes`, when given),
    run by PyTorch on `arguments` in a forked child: the graph's ops are the user's too, and an abort or a hang
    there must not take the caller with it (children.ContainedFailure says how it ended)."""
    return call_in_fork(lambda: _record(graph, arguments, nodes), core.EAGER_TIMEOUT_S,
                        "the FX graph, run by PyTorch node by node,")


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


def _line_value(op: Op, fx_ops: list, values: dict, numel: int):
    """(FX op, value) that the source line of `op` computes last in PyTorch, preferring its module; None."""
    at_line = [f for f in fx_ops if f.location is not None and op.location is not None
               and (f.location.file, f.location.line) == (op.location.file, op.location.line)
               and f.attrs.get("node") in values and values[f.attrs["node"]][0].numel() == numel]
    same_module = [f for f in at_line if f.module == op.module]
    chosen = (same_module or at_line)[-1:] or None
    return (chosen[0], values[chosen[0].attrs["node"]][0]) if chosen else None


def analyze_semantics(b) -> tuple:
    ttnn = b.stages.get("ttnn")
    fx = b.stages.get("fx")
    if ttnn is None or not ttnn.ok or fx is None or b.fx_graph is None or not any(
            op.name in READINGS for op in ttnn.ops) or b.missing_values():
        return [], {}

    lines = {(op.location.file, op.location.line) for op in ttnn.ops if op.name in READINGS and op.location}
    needed = {f.attrs.get("node") for f in fx.ops if f.location and (f.location.file, f.location.line) in lines}
    try:
        run = interpret_text("ttnn", ttnn.full_text(), list(b.argument_values), record=True)
        values = fx_node_values(b.fx_graph, b.argument_values, needed)
    except (NotInterpreted, ContainedFailure):
        return [], {}  # the run says why (b.run("ttnn", device="cpu")); no semantic claim without values
    findings = []
    for index, inputs in run.inputs.items():
        op = ttnn.ops[index]
        result = run.values[index][0]
        found = _line_value(op, fx.ops, values, result.numel())
        if found is None:
            continue
        fx_op, reference = found
        reference = reference.reshape(result.shape).double()
        errors = {name: float((fn(inputs[0]).double() - reference).abs().max())
                  for name, fn in READINGS[op.name].items()}
        documented = next(iter(errors))
        tolerance = 2e-6 * max(1.0, float(reference.abs().max()))  # float32 rounding stays well below
        best = min(errors, key=lambda name: errors[name])
        if errors[documented] <= tolerance or best == documented or \
                errors[best] * _CLEARLY_CLOSER > errors[documented]:
            continue
        where = f" (module {op.module})" if op.module else ""
        readings = "; ".join(f"read as {name}: max |error| {err:.3g}" for name, err in errors.items())
        findings.append(Finding(
            kind=FindingKind.SEMANTIC, stage=StageName.TTNN, op=op.name, location=op.location,
            message=(f"{op.name}{where} does not compute what its source line computes in PyTorch "
                     f"({fx_op.name}): {readings}. The interpreter uses the documented reading ({documented}); the "
                     f"line matches the {best} reading, so the compiler changed the op's meaning"),
            details={"op_index": index, "readings": errors, "used": documented, "matches": best,
                     "reference_op": fx_op.name, "reference_node": fx_op.attrs.get("node")}))
    return findings, {}
