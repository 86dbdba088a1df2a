"""The golden: what the model's outputs should be, flattened in the order the compiled graph returns them.

A PyTorch module runs eagerly on the CPU. An ONNX file or proto runs in onnxruntime (the reference users trust,
and fast), or in onnx's reference evaluator when onnxruntime cannot take the model; the result names which.
Both run in a forked child: a model, or a runtime, that crashes or hangs cannot take the caller with it."""
from __future__ import annotations

import numpy as np
import torch

from .. import core
from ..compare.values import difference_beyond
from ..proc.children import call_in_fork
from ..stages.fx import on_meta
from ..stages.onnx_prepare import graph_inputs
from .one_op import tensor_leaves
from ..io.arrays import to_numpy  # noqa: F401 - golden values are handed on as numpy
from ..core import BringupRecord, StageName

TORCH_EAGER = "torch (eager, CPU)"
TORCH_FX_GRAPH = "torch (the captured FX graph on the loaded weights: the model is on the meta device)"


def captured_graph_outputs(b: BringupRecord, what: str) -> list:
    """The captured FX graph (the one torch-mlir imports) run by PyTorch on the bringup's argument values, in a
    forked child; `what` names it in a ContainedFailure."""
    def run():
        with torch.no_grad():
            return [t.detach().clone() for t in tensor_leaves(b.fx_graph(*[v.clone() for v in b.argument_values]))]

    return [to_numpy(t) for t in call_in_fork(run, core.EAGER_TIMEOUT_S, what)]


class NondeterministicGolden(Exception):
    """Two eager runs of the model on the same inputs differ (random numbers drawn in forward, state it changes):
    any PCC against its outputs would be noise, so there is none."""


def check_deterministic(first: list, second: list) -> None:
    for i, (a, b) in enumerate(zip(first, second)):
        diff = difference_beyond(a, b, rtol=1e-5, atol=1e-6)
        if diff is not None:
            raise NondeterministicGolden(
                f"the golden is not deterministic: two eager runs of the model on the same inputs differ (output "
                f"{i}: max abs difference {diff:.4g}); the model draws random numbers or changes its own state in "
                f"forward, so a PCC against it would mean nothing")


def golden_outputs(b: BringupRecord) -> tuple:
    """(numpy arrays of the model's outputs on b.example_inputs, which reference made them)."""
    model = b.model
    if isinstance(model, torch.nn.Module) and on_meta(model):
        # The module has no numbers; the graph it was captured into runs on the weights loaded into the bringup.
        # It checks the lowering and the device, not the capture itself: the label says so.
        return captured_graph_outputs(b, "the golden (the captured FX graph run by PyTorch)"), TORCH_FX_GRAPH
    if isinstance(model, torch.nn.Module):
        capture = b.stages[StageName.FX].meta if StageName.FX in b.stages else {}
        placeholders = [s["placeholder"] for s in capture.get("signature", ()) if s["kind"] == "USER_INPUT"]
        mutations = sorted(capture.get("mutations", ()), key=lambda m: m["output"])

        def eager():
            with torch.no_grad():
                xs = [x.clone() for x in b.example_inputs]
                outputs = tensor_leaves(model(*xs))
                # torch.export returns the state the model updates in place (a KV cache) first, then its outputs
                updated = [xs[placeholders.index(m["target"])] if m["kind"] == "input" else
                           model.get_parameter(m["target"]) if m["kind"] == "parameter" else
                           model.get_buffer(m["target"]) for m in mutations]
                return [t.detach().clone() for t in updated + outputs]

        def twice():
            # A second run in the same forked copy (its generator goes on from the first; the caller's is never
            # touched) shows a model whose outputs are not a function of its inputs. A model that updates its own
            # state in place is run once: its second run would differ by design.
            first = eager()
            return first, (None if mutations else eager())

        # The user's code, contained (see children.call_in_fork); ContainedFailure says how it ended.
        arrays, again = call_in_fork(twice, core.EAGER_TIMEOUT_S, "the golden (the model run eagerly)")
        arrays = [to_numpy(t) for t in arrays]
        if again is not None:
            check_deterministic(arrays, [to_numpy(t) for t in again])
        return arrays, TORCH_EAGER
    feeds = [to_numpy(x) for x in b.example_inputs]
    return call_in_fork(lambda: onnx_reference_outputs(model, feeds), core.EAGER_TIMEOUT_S,
                        "the golden (the ONNX model in onnxruntime)")


def onnx_reference_outputs(model, feeds: list) -> tuple:
    """An ONNX model (path or proto) on `feeds` (graph-input order) -> (output arrays, reference name).
    onnxruntime first; onnx.reference when onnxruntime refuses the model (an op or type it lacks)."""
    import onnx

    proto = onnx.load(model) if not isinstance(model, onnx.ModelProto) else model
    named = {i.name: x for i, x in zip(graph_inputs(proto), feeds)}
    try:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # a forked child: no thread pool to fight the parent's over the cores
        options.log_severity_level = 3
        session = ort.InferenceSession(proto.SerializeToString(), options, providers=["CPUExecutionProvider"])
        return [np.asarray(o) for o in session.run(None, named)], f"onnxruntime {ort.__version__}"
    except Exception as exc:  # noqa: BLE001 - any refusal: the reference evaluator is the fallback, and says why
        first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        if "onnxruntime_src" in first_line:  # "[ONNXRuntimeError] : 1 : FAIL : /onnxruntime_src/...(signature) msg"
            first_line = first_line.rsplit(") ", 1)[-1]
        first_line = first_line[:200]
        from onnx.reference import ReferenceEvaluator

        outputs = ReferenceEvaluator(proto).run(None, named)
        return [np.asarray(o) for o in outputs], f"onnx.reference (onnxruntime refused the model: {first_line})"
