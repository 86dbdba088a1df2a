"""The units of an op-by-op run: every op of the captured graph (FX nodes, ONNX nodes) with the inputs it saw in the
golden run, as standalone programs; the dedup key is the unit's spec."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import torch
import torch.fx

from ..core import BringupRecord, ModelFailed, Reached, StageName
from ..io.arrays import to_numpy
from ..ir.locations import frames_from_stack_trace, user_frame
from ..proc.children import ContainedFailure, call_in_fork
from ..stages.onnx_prepare import graph_inputs
from .one_op import make_spec, spec_key, tensor_leaves, used_outputs
from .onnx_nodes import SKIPPED_OPS, constant_names, node_outputs, one_node_model, recorded_values
from ..records.results import OpRow


# Ops whose result is uninitialized memory: alone they compute nothing to compile or compare (in the graph a
# later op writes the buffer). They are counted as skipped, never reported as a compiler failure.
UNINITIALIZED = ("aten.empty.memory_format", "aten.empty_strided.default", "aten.empty_like.default",
                 "aten.new_empty.default", "aten.new_empty_strided.default")


@dataclass
class Unit:
    """One op to lower and run: an FX spec (see one_op.py) or a one-node ONNX model, its inputs and golden."""
    kind: str  # "fx" or "onnx"
    payload: object  # the spec dict, or the one-node ModelProto
    inputs: list  # numpy arrays, in argument order
    golden: list  # numpy arrays, the op's outputs in the whole model's run
    row: OpRow
    refused: Optional[str] = None  # why the op could not be made a graph of its own (then nothing runs)
    key: Optional[tuple] = None  # the dedup key, where a flow meets the same op again (chained)


def input_desc(x) -> str:
    return f"{'x'.join(map(str, x.shape)) or 'scalar'} {str(x.dtype).replace('torch.', '')}"


class _Recorder(torch.fx.Interpreter):
    """Runs the graph once, handing every aten call (with its concrete args) to `on_call`."""

    def __init__(self, gm, on_call):
        super().__init__(gm)
        self.on_call = on_call

    def run_node(self, n):
        if n.op != "call_function" or not isinstance(n.target, torch._ops.OpOverload):
            return super().run_node(n)
        args, kwargs = self.fetch_args_kwargs_from_env(n)
        spec = make_spec(n, args, kwargs)
        spec["inputs"] = [x.clone() for x in spec["inputs"]]  # in-place ops would change them under us
        out = super().run_node(n)
        self.on_call(n, spec, out)
        return out


def fx_location(node) -> str:
    loc = user_frame(frames_from_stack_trace(node.meta.get("stack_trace")))
    return loc.short if loc else ""


def recorded_calls(b: BringupRecord, timeout: float, first_of_each_key: bool = False) -> list:
    """[(FX node, spec, output)] of every aten call in graph order, from one eager run of the FX graph in a forked
    copy of this process (the model's own ops, custom ones included, may abort or hang: that stays contained).
    The run gets 4x the per-op timeout, at least 10 s. `first_of_each_key`: [(FX node, spec_key, spec, output)],
    spec and output None for a call whose key was seen before (isolated op by op runs each key once: resnet50's
    1074 calls are 119 keys, and handing every call's tensors back cost seconds)."""
    def record():
        calls, seen = [], set()

        def on_call(node, spec, out):
            if not first_of_each_key:
                calls.append((node.name, spec, out))
                return
            key = spec_key(spec)
            calls.append((node.name, key, spec, out) if key not in seen else (node.name, key, None, None))
            seen.add(key)

        with torch.no_grad():
            _Recorder(b.fx_graph, on_call).run(*[v.clone() for v in b.argument_values])
        return calls

    nodes = {n.name: n for n in b.fx_graph.graph.nodes}
    try:
        calls = call_in_fork(record, max(4 * timeout, 10.0), "recording the graph's values (an eager run)")
    except ContainedFailure as exc:
        raise ModelFailed(f"op-by-op needs one eager run of the model's graph, and {exc}") from None
    return [(nodes[call[0]], *call[1:]) for call in calls]


def fx_unit(spec: dict, out) -> Unit:
    golden = [to_numpy(t) for t in tensor_leaves(used_outputs(spec, out))]
    return Unit("fx", spec, [to_numpy(x) for x in spec["inputs"]], golden,
                new_row(spec["target"], spec["inputs"], "fx"))


def fx_occurrences(b: BringupRecord, timeout: float, skipped: dict):
    skips: dict = {}  # key -> whether its calls are skipped (the same for every call of one key)
    for node, key, spec, out in recorded_calls(b, timeout, first_of_each_key=True):
        if spec is None:  # a key seen before
            if skips[key]:
                skipped[key[0]] = skipped.get(key[0], 0) + 1
                continue
        else:
            skips[key] = skip_call(spec, out, skipped)
            if skips[key]:
                continue
        yield key, (lambda spec=spec, out=out: fx_unit(spec, out)), node.name, fx_location(node)


def onnx_values(b: BringupRecord, timeout: float) -> dict:
    proto = b.stages[StageName.ONNX].module

    feeds = {i.name: to_numpy(x) for i, x in zip(graph_inputs(proto), b.example_inputs)}
    try:
        return call_in_fork(lambda: recorded_values(proto, feeds), max(4 * timeout, 60.0),
                            "recording every node's values (an onnxruntime run)")
    except ContainedFailure as exc:
        raise ModelFailed(f"op by op needs one onnxruntime run of the model, and {exc}") from None
    except Exception as exc:  # onnxruntime refused the model: nothing to compare against
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]
        raise ModelFailed(f"op by op needs one onnxruntime run of the model, and onnxruntime refused it: "
                          f"{first}") from None


def onnx_locations(b: BringupRecord) -> dict:
    """ONNX node name -> the PyTorch source line the exporter recorded for it (short form)."""
    return {op.attrs.get("node"): op.location.short for op in b.stages[StageName.ONNX].ops if op.location}


def onnx_nodes(b: BringupRecord):
    proto = b.stages[StageName.ONNX].module
    return [(i, n) for i, n in enumerate(proto.graph.node) if n.op_type not in SKIPPED_OPS]


def onnx_unit(b: BringupRecord, node, values: dict, constants: set) -> tuple:
    op = f"onnx.{node.op_type}" if node.domain in ("", "ai.onnx") else f"{node.domain}.{node.op_type}"
    try:
        model, feeds, key = one_node_model(b.stages[StageName.ONNX].module, node, values, constants, b.params)
    except Exception as exc:  # noqa: BLE001 - a value no tensor type holds (a sequence, strings): a row, not the end
        why = f"cannot be made a model of its own: {type(exc).__name__}: {str(exc).strip()[:200]}"
        return (op, id(node)), Unit("onnx", None, [], [], new_row(op, [], "onnx"), refused=why)
    return key, Unit("onnx", model, feeds, node_outputs(node, values), new_row(op, feeds, "onnx"))


def onnx_node_name(node, index: int) -> str:
    return node.name or f"{node.op_type}_{index}"


def onnx_occurrences(b: BringupRecord, timeout: float):
    values = onnx_values(b, timeout)
    constants = constant_names(b.stages[StageName.ONNX].module)
    locations = onnx_locations(b)
    for index, node in onnx_nodes(b):
        key, unit = onnx_unit(b, node, values, constants)
        yield key, (lambda unit=unit: unit), onnx_node_name(node, index), locations.get(node.name, "")


def skip_call(spec: dict, out, skipped: dict) -> bool:
    """Whether this call is no op to run alone: it returns no tensor (an assertion such as
    aten._assert_tensor_metadata), or uninitialized memory (UNINITIALIZED). Counted in `skipped`."""
    if spec["target"] in UNINITIALIZED or not tensor_leaves(out):
        skipped[spec["target"]] = skipped.get(spec["target"], 0) + 1
        return True
    return False


def new_row(op: str, inputs: list, kind: str) -> OpRow:
    return OpRow(index=0, op=op, count=0, inputs=[input_desc(x) for x in inputs], locations=[],
                 furthest_stage=Reached(kind))
