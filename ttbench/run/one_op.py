"""One FX node as a graph of its own: the unit of the op-by-op flow.

A spec is what a worker needs to rebuild and lower the op: the op's qualified name, its arguments with every
tensor replaced by a `TensorInput(i)` marker, and the input tensors. Specs of the same op with the same input
shapes/dtypes and the same non-tensor arguments share a key, so each is compiled and run once.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass

import torch
import torch.fx
from torch.utils._pytree import tree_flatten, tree_map


@dataclass(frozen=True)
class TensorInput:
    index: int


def op_qualname(target) -> str:
    """torch.ops.aten.add.Tensor -> 'aten.add.Tensor' (what `resolve` turns back into the op)."""
    return str(target)


def resolve(qualname: str):
    namespace, name, overload = qualname.split(".")
    return getattr(getattr(getattr(torch.ops, namespace), name), overload)


def make_spec(node: torch.fx.Node, args: tuple, kwargs: dict) -> dict:
    """Concrete args/kwargs of one call (as an eager run saw them) -> a spec."""
    inputs = []

    def mark(x):
        if isinstance(x, torch.Tensor):
            inputs.append(x)
            return TensorInput(len(inputs) - 1)
        return x

    margs, mkwargs = tree_map(mark, (tuple(args), dict(kwargs)))
    return {"target": op_qualname(node.target), "args": margs, "kwargs": mkwargs, "inputs": inputs,
            "outputs_used": outputs_used(node)}


def outputs_used(node: torch.fx.Node):
    """Indices of a multi-output op's results that the graph reads (None: all of them, or a single result).
    The one-op graph returns only these, as the op computes in the model: max_pool2d_with_indices whose indices
    nobody reads lowers differently (and the Tenstorrent compiler takes it) from one whose indices are read."""
    if not node.users or any(u.target is not operator.getitem for u in node.users):
        return None
    used = sorted({int(u.args[1]) for u in node.users if u.users})  # type: ignore[arg-type]
    return used or None


def used_outputs(spec: dict, out):
    """The results of one call that the one-op graph returns (see outputs_used)."""
    used = spec.get("outputs_used")
    if used is None or not isinstance(out, (tuple, list)):
        return out
    return tuple(out[i] for i in used)


def spec_key(spec: dict) -> tuple:
    shapes = tuple((tuple(x.shape), str(x.dtype).replace("torch.", "")) for x in spec["inputs"])
    return spec["target"], shapes, repr((spec["args"], spec["kwargs"], spec.get("outputs_used")))


def call(spec: dict, inputs):
    """Run the spec's op on `inputs` (the tensors in marker order)."""
    def fill(x):
        return inputs[x.index] if isinstance(x, TensorInput) else x

    args, kwargs = tree_map(fill, (spec["args"], spec["kwargs"]))
    return resolve(spec["target"])(*args, **kwargs)


def one_op_graph(spec: dict) -> torch.fx.GraphModule:
    """An aten graph computing only the spec's op (with shape metadata, ready for torch-mlir's importer)."""
    from torch.fx.experimental.proxy_tensor import make_fx

    def fn(*inputs):
        return used_outputs(spec, call(spec, inputs))

    with torch.no_grad():
        return make_fx(fn, tracing_mode="fake")(*[x.clone() for x in spec["inputs"]])


def tensor_leaves(value) -> list:
    return [x for x in tree_flatten(value)[0] if isinstance(x, torch.Tensor)]
