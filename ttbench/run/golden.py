"""The golden: the original model run eagerly in PyTorch on the CPU, outputs flattened in pytree order (the
order the exported graph returns them in)."""
from __future__ import annotations

import numpy as np
import torch

from ..children import call_in_fork
from .. import core
from .one_op import tensor_leaves


def to_numpy(t: torch.Tensor) -> np.ndarray:
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        import ml_dtypes

        return t.view(torch.int16).numpy().view(ml_dtypes.bfloat16)
    return t.numpy()


def golden_outputs(b) -> list:
    """Numpy arrays of the model's outputs on b.example_inputs."""
    model = b.model
    if isinstance(model, torch.nn.Module):
        def eager():
            with torch.no_grad():
                return [t.detach().clone() for t in tensor_leaves(model(*[x.clone() for x in b.example_inputs]))]

        # The user's code, contained (see children.call_in_fork); ContainedFailure says how it ended.
        return [to_numpy(t) for t in call_in_fork(eager, core.EAGER_TIMEOUT_S, "the golden (the model run eagerly)")]
    # An ONNX file or proto: the ONNX reference evaluator is the ground truth we have without onnxruntime.
    import onnx
    from onnx.reference import ReferenceEvaluator

    proto = onnx.load(model) if not isinstance(model, onnx.ModelProto) else model
    names = [i.name for i in proto.graph.input if i.name not in {x.name for x in proto.graph.initializer}]
    feeds = {n: to_numpy(x) for n, x in zip(names, b.example_inputs)}
    return [np.asarray(o) for o in ReferenceEvaluator(proto).run(None, feeds)]
