"""Preparing an ONNX model for the import: the file read and checked (opset upgraded, dynamic dimensions fixed from
the inputs, shapes inferred), and its example inputs checked against the graph's declared types, or made."""
from __future__ import annotations

import contextlib
import logging
import os
import re

import numpy as np
import torch

from ..core import BadInput, CompilerFailure, check_input_size
from ..io.arrays import ML_DTYPES, from_numpy
from .fx import check_inputs


IMPORT_OPSET = 17  # older default-domain opsets are upgraded to this before the import


def prepare_onnx(proto, inputs=()):
    """An ONNX file as users have them -> what torch-mlir's importer handles, and what was done (a list of lines).
    Old opsets are upgraded (onnx.version_converter); weights that IR-version-3 files list among the graph inputs
    are taken out of the inputs (they stay initializers); dynamic input dimensions take the example inputs' sizes
    (the compiled graph is for those shapes); shape inference with data propagation types every value the importer
    would otherwise leave untyped. The caller's proto is not changed."""
    import onnx

    prepared = onnx.ModelProto()
    prepared.CopyFrom(proto)
    notes = []
    opset = next((o.version for o in prepared.opset_import if o.domain in ("", "ai.onnx")), None)
    if opset is not None and opset < IMPORT_OPSET:
        before = len(prepared.graph.node)
        try:
            prepared = onnx.version_converter.convert_version(prepared, IMPORT_OPSET)
            notes.append(f"opset {opset} -> {IMPORT_OPSET} ({before} -> {len(prepared.graph.node)} nodes)")
        except Exception as exc:  # the converter cannot upgrade every model: import it as it is, and say so
            notes.append(f"opset {opset} kept: the version converter failed ({type(exc).__name__}: "
                         f"{str(exc).strip().splitlines()[0][:120] if str(exc).strip() else ''})")
    inits = {i.name for i in prepared.graph.initializer}
    listed = [i for i in prepared.graph.input if i.name in inits]
    if listed:
        kept = [i for i in prepared.graph.input if i.name not in inits]
        del prepared.graph.input[:]
        prepared.graph.input.extend(kept)
        notes.append(f"{len(listed)} initializer(s) listed as graph inputs taken out of the inputs (IR version "
                     f"{proto.ir_version})")
    fixed = _fix_dynamic_dims(prepared, inputs)
    if fixed:
        notes.append(f"dynamic input dimensions fixed to the example inputs: {', '.join(fixed)}")
    untyped = _untyped_values(prepared)
    try:
        prepared = onnx.shape_inference.infer_shapes(prepared, strict_mode=False, data_prop=True)
    except Exception as exc:
        notes.append(f"shape inference failed ({type(exc).__name__}); values stay as the file types them")
    else:
        if untyped:
            notes.append(f"shape inference typed {len(untyped) - len(_untyped_values(prepared))} of "
                         f"{len(untyped)} untyped value(s)")
    return prepared, notes


def _fix_dynamic_dims(proto, inputs) -> list:
    """Give every dynamic dimension of the graph inputs the size of the example input's (in place); a named
    dimension keeps its value wherever else it appears (outputs, value_info). -> what was fixed, for the notes."""
    bound, fixed = {}, []
    for inp, x in zip(graph_inputs(proto), inputs):
        dims = inp.type.tensor_type.shape.dim if inp.type.tensor_type.HasField("shape") else None
        if dims is None:
            inp.type.tensor_type.shape.dim.extend([])
            dims = inp.type.tensor_type.shape.dim
            for size in x.shape:
                dims.add().dim_value = int(size)
            fixed.append(f"{inp.name} (no shape) -> {'x'.join(map(str, x.shape))}")
            continue
        for dim, size in zip(dims, x.shape):
            if dim.HasField("dim_value"):
                continue
            label = dim.dim_param or "?"
            if dim.dim_param:
                bound[dim.dim_param] = int(size)
            dim.dim_value = int(size)  # clears dim_param (a oneof)
            fixed.append(f"{inp.name}.{label}={int(size)}")
    if bound:
        for value in list(proto.graph.output) + list(proto.graph.value_info):
            if value.type.WhichOneof("value") == "tensor_type":
                for dim in value.type.tensor_type.shape.dim:
                    if dim.HasField("dim_param") and dim.dim_param in bound:
                        dim.dim_value = bound[dim.dim_param]
    return fixed


def _untyped_values(proto) -> set:
    """Names of node outputs the model gives no type (no value_info, not a graph output)."""
    typed = {v.name for v in list(proto.graph.value_info) + list(proto.graph.output) + list(proto.graph.input)}
    return {o for n in proto.graph.node for o in n.output if o and o not in typed}


# Lines the exporter logs on every export that say nothing about the user's model: four "torchvision is not
# installed. Skipping torchvision::nms" (and roi_align, ...) about ops no model here uses, and the optimizer's
# "Evaluation failed: ..." when it leaves a constant unfolded (the graph is still right, only not folded there).
_EXPORTER_NOISE = {"torch.onnx._internal.exporter._registration": "torchvision is not installed",
                   "onnxscript.optimizer._constant_folding": "Evaluation failed"}


class _Noise(logging.Filter):
    def __init__(self, text: str):
        super().__init__()
        self.text = text

    def filter(self, record: logging.LogRecord) -> bool:
        return self.text not in record.getMessage()


@contextlib.contextmanager
def _without_exporter_noise():
    filters = [(logging.getLogger(name), _Noise(text)) for name, text in _EXPORTER_NOISE.items()]
    for logger, noise in filters:
        logger.addFilter(noise)  # on the exporter's own loggers, for this export only
    try:
        yield
    finally:
        for logger, noise in filters:
            logger.removeFilter(noise)


def load_onnx(model, inputs=(), dims: dict = None):
    """nn.Module / path / ModelProto -> (ModelProto, example inputs as a tuple of tensors in graph-input order).
    For ONNX files, `inputs` may be tensors, numpy arrays, or a dict by input name (see onnx_inputs)."""
    import onnx

    if isinstance(model, torch.nn.Module):
        if dims:
            raise BadInput("dims fixes dynamic dimensions of an ONNX file's inputs: give example inputs for a module")
        check_inputs(model, inputs)
        try:
            with torch.no_grad(), _without_exporter_noise():
                program = torch.onnx.export(model, tuple(inputs), dynamo=True, verbose=False)
        except Exception as exc:
            raise CompilerFailure(f"torch.onnx.export failed: {_root_cause(exc)}") from None
        return program.model_proto, tuple(inputs)
    if isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        if not os.path.isfile(path):
            raise BadInput(f"ONNX file not found: {path}")
        try:
            proto = onnx.load(path)
            _check_graph_size(proto, path)
            onnx.checker.check_model(proto)
        except BadInput:
            raise
        except Exception as exc:
            raise BadInput(f"{path} is not a readable ONNX model ({type(exc).__name__}: "
                           f"{str(exc).strip().splitlines()[0][:200] if str(exc).strip() else 'malformed'})") from None
        model = proto
    if not isinstance(model, onnx.ModelProto):
        raise BadInput(f"the onnx frontend takes an nn.Module, a .onnx path or an onnx.ModelProto, "
                       f"got {type(model).__name__}")
    return model, onnx_inputs(model, inputs, dims)


# Measured here: a chain of 100,000 element-wise nodes takes 57 s to StableHLO (20,000: 11.5 s), about linear and
# before any Tenstorrent stage; heavier ops take longer, and each pass has a deadline (proc/passes.PASS_TIMEOUT_S).
# A graph past this limit is refused before any of it, with what it would cost.
MAX_ONNX_NODES = 200_000
SECONDS_PER_NODE = 57 / 100_000


def _nodes(graph) -> int:
    """Nodes of a graph and of every subgraph inside it (If/Loop/Scan bodies)."""
    count = 0
    for node in graph.node:
        count += 1
        for attr in node.attribute:
            if attr.HasField("g"):
                count += _nodes(attr.g)
            for sub in attr.graphs:
                count += _nodes(sub)
    return count


def _check_graph_size(proto, path: str) -> None:
    given = os.environ.get("TTBENCH_MAX_ONNX_NODES", "")
    limit = int(given) if given.isdigit() else MAX_ONNX_NODES
    count = _nodes(proto.graph)
    if count > limit:
        raise BadInput(f"{path} has {count:,} nodes, past the {limit:,} ttbench takes (at least "
                       f"{count * SECONDS_PER_NODE / 60:.0f} min to StableHLO alone, at the rate of element-wise "
                       f"nodes here): cut the graph, or set TTBENCH_MAX_ONNX_NODES={count} to go on anyway")


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _root_cause(exc: BaseException) -> str:
    """The first line of the exception at the bottom of the chain (the exporter wraps "No ONNX function found for
    <op>" in a generic "Failed to convert the exported program" banner), without terminal colour codes."""
    while exc.__cause__ is not None:
        exc = exc.__cause__
    lines = [l for l in _ANSI.sub("", str(exc)).strip().splitlines() if l.strip()]
    return f"{type(exc).__name__}: {lines[0][:300] if lines else ''}".rstrip(": ")


def graph_inputs(model) -> list:
    """The graph's real inputs (ValueInfoProto), in order: initializers that IR-version-3 files list too left out."""
    init_names = {i.name for i in model.graph.initializer}
    return [i for i in model.graph.input if i.name not in init_names]


def _torch_dtypes() -> dict:
    """ONNX element type -> the torch dtype that holds it."""
    from onnx import TensorProto as T

    return {T.FLOAT: torch.float32, T.DOUBLE: torch.float64, T.FLOAT16: torch.float16, T.BFLOAT16: torch.bfloat16,
            T.INT8: torch.int8, T.INT16: torch.int16, T.INT32: torch.int32, T.INT64: torch.int64,
            T.UINT8: torch.uint8, T.UINT16: torch.uint16, T.UINT32: torch.uint32, T.UINT64: torch.uint64,
            T.BOOL: torch.bool, T.COMPLEX64: torch.complex64, T.COMPLEX128: torch.complex128,
            T.FLOAT8E4M3FN: torch.float8_e4m3fn, T.FLOAT8E4M3FNUZ: torch.float8_e4m3fnuz,
            T.FLOAT8E5M2: torch.float8_e5m2, T.FLOAT8E5M2FNUZ: torch.float8_e5m2fnuz}


def _declared(inp):
    """(dims with None for dynamic ones and the dim_param names, torch dtype) of a graph input; BadInput when it
    is not a tensor PyTorch can hold."""
    import onnx

    kind = inp.type.WhichOneof("value")
    if kind != "tensor_type":
        raise BadInput(f"ONNX input {inp.name!r} is a {kind or 'untyped value'}, not a tensor: ttbench brings up "
                       f"models whose inputs are tensors")
    tt = inp.type.tensor_type
    dtype = _torch_dtypes().get(tt.elem_type)
    if dtype is None:
        name = onnx.TensorProto.DataType.Name(tt.elem_type) if tt.elem_type in onnx.TensorProto.DataType.values() \
            else str(tt.elem_type)
        raise BadInput(f"ONNX input {inp.name!r} has element type {name}, which has no PyTorch tensor: give "
                       f"inputs of a numeric type")
    dims = [d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in tt.shape.dim] \
        if tt.HasField("shape") else None
    return dims, dtype


def _as_tensor(name: str, value) -> torch.Tensor:
    if isinstance(value, torch.Tensor):
        return value
    if isinstance(value, (np.ndarray, np.generic)):
        value = np.asarray(value)
        if value.dtype == object or value.dtype.kind in "US" or (value.dtype.kind == "V" and value.dtype.name
                                                                   not in ML_DTYPES.values()):
            raise BadInput(f"ONNX input {name!r} was given a {value.dtype} array: give numeric arrays")
        return from_numpy(value)  # a copy: the caller's array stays theirs
    raise BadInput(f"ONNX input {name!r} was given a {type(value).__name__}: give a torch tensor or a numpy array")


def onnx_inputs(model, given=(), dims: dict = None) -> tuple:
    """Example inputs for the graph's inputs, in order. `given`: a sequence of tensors or numpy arrays, or a dict
    by input name; none -> seeded random inputs, with `dims` ({"batch": 1}) fixing named dynamic dimensions. Each
    given input is checked against its declared element type and static dimensions before any work starts."""
    inputs = graph_inputs(model)
    names = [i.name for i in inputs]
    dims = dict(dims or {})
    for key, value in dims.items():
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise BadInput(f"dimension {key!r}={value!r} must be a positive integer")
    declared = {i.name: _declared(i) for i in inputs}
    if isinstance(given, dict):
        unknown = [k for k in given if k not in declared]
        missing = [n for n in names if n not in given]
        if unknown or missing:
            raise BadInput(f"the ONNX model's inputs are {', '.join(names) or 'none'}"
                           + (f"; not inputs: {', '.join(map(str, unknown))}" if unknown else "")
                           + (f"; missing: {', '.join(missing)}" if missing else ""))
        given = [given[n] for n in names]
    elif isinstance(given, (torch.Tensor, np.ndarray)):
        given = [given]
    given = list(given)
    if given and len(given) != len(names):
        raise BadInput(f"the ONNX model takes {len(names)} input(s) ({', '.join(names)}), got {len(given)}")
    dim_names = {d for dd, _ in declared.values() for d in (dd or ()) if isinstance(d, str)}
    unused = sorted(set(dims) - dim_names)
    if unused:
        raise BadInput(f"no input dimension is named {', '.join(map(repr, unused))} (the model's named "
                       f"dimensions: {', '.join(sorted(dim_names)) or 'none'})")
    if given:
        tensors = tuple(_as_tensor(n, x) for n, x in zip(names, given))
        for name, x in zip(names, tensors):
            _check_given(name, x, *declared[name])
        return tensors
    gen = torch.Generator().manual_seed(0)
    out = []
    for name in names:
        shape, dtype = declared[name]
        if shape is None:
            raise BadInput(f"ONNX input {name!r} has no declared shape: pass example inputs")
        shape = [dims.get(d, d) if isinstance(d, str) else d for d in shape]
        if any(not isinstance(d, int) for d in shape):
            free = [str(d) if d is not None else "?" for d in shape if not isinstance(d, int)]
            raise BadInput(f"ONNX input {name!r} has dynamic dimensions ({', '.join(free)}): pass example inputs, "
                           f"or fix named ones with --dim NAME=VALUE (dims={{'NAME': VALUE}})")
        check_input_size(f"ONNX input {name!r}", shape, dtype.itemsize)
        if dtype.is_floating_point or dtype.is_complex:
            out.append(torch.randn(shape, generator=gen).to(dtype))
        else:
            out.append(torch.randint(0, 2, shape, generator=gen).to(dtype))
    return tuple(out)


def _check_given(name: str, x: torch.Tensor, shape, want) -> None:
    if x.dtype != want:
        raise BadInput(f"ONNX input {name!r} is {str(want).replace('torch.', '')}, the value given is "
                       f"{str(x.dtype).replace('torch.', '')}: convert it (e.g. .astype)")
    if shape is None:
        return
    fits = len(shape) == x.dim() and all(not isinstance(d, int) or d == s for d, s in zip(shape, x.shape))
    if not fits:
        want_shape = "x".join(str(d) if d is not None else "?" for d in shape) or "a scalar"
        raise BadInput(f"ONNX input {name!r} has shape {want_shape}, the value given is "
                       f"{'x'.join(map(str, x.shape)) or 'a scalar'}")
