"""Ops of an in-memory MLIR module, walked with torch-mlir's own bindings (`torch_mlir.ir`).

One `Op` record per op of a stage: its name, the user's source line (from the op's `Location`), the SSA names it
defines and uses (one `AsmState` for the module, so they match the printed IR), a one-line text, and for tensor
constants their facts (shape, element type, bytes, splat) with the values readable as numpy (`constant_array`).

What counts as an op of a stage: every op directly in a function body, and the ops inside control flow
(`stablehlo.while/if/case`, `torch.prim.Loop/If`, `scf.*`). The bodies of ops such as `stablehlo.reduce_window`
or `stablehlo.sort` (a comparator, a reducer) belong to their op and are not counted on their own; text.py reads
printed IR by the same rule.
"""
from __future__ import annotations

import io
import re
from typing import Optional

import numpy as np

from ..core import Op
from .locations import read_location, read_mlir_string, user_frame
from .text import resource_blobs as blobs_of_trailer, split_resources
from .dialects import (CONSTANT_VALUE_ATTRS, CONTROL_FLOW_OPS, ConstantFacts, ELIDE_ABOVE, ELIDED, ITEM_SIZE, NP_DTYPES,  # noqa: F401
                       STRUCTURAL_OPS, is_structural)

def np_dtype(element_type: str) -> np.dtype:
    if element_type == "bf16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(NP_DTYPES[element_type])


def op_name(operation) -> str:
    """The op's name, ONNX's `torch.operator "onnx.Conv"` named after the ONNX op."""
    name = operation.name
    if name == "torch.operator" and "name" in operation.attributes:
        from torch_mlir import ir

        return ir.StringAttr(operation.attributes["name"]).value
    return name


def _shape_and_element(type_) -> Optional[tuple]:
    """((dims), element type text) of a statically shaped tensor type (builtin or !torch.vtensor), else None."""
    from torch_mlir import ir

    try:
        shaped = ir.ShapedType(type_)
    except (ValueError, TypeError):
        # torch-mlir has no Python class for its tensor type: its printed form is all the bindings give
        vtensor = re.fullmatch(r"!torch\.vtensor<\[([\d,]*)\],(\w+)>", str(type_))
        if vtensor is None:
            return None
        return tuple(int(d) for d in vtensor.group(1).split(",") if d), vtensor.group(2)
    if not shaped.has_static_shape:
        return None
    return tuple(shaped.shape), str(shaped.element_type)


def _tensor_bytes(type_) -> int:
    """Bytes of a statically shaped tensor value (0 when unknown)."""
    parsed = _shape_and_element(type_)
    if parsed is None or parsed[1] not in ITEM_SIZE:
        return 0
    return int(np.prod(parsed[0])) * ITEM_SIZE[parsed[1]] if parsed[0] else ITEM_SIZE[parsed[1]]


def _cached_bytes(type_, cache: dict) -> int:
    found = cache.get(type_)
    if found is None:
        found = cache[type_] = _tensor_bytes(type_)
    return found


def constant_facts(operation, name: str) -> Optional[ConstantFacts]:
    """Shape, element type, logical bytes, bytes written in the IR and splat-ness of a tensor constant; None for
    ops that are not tensor literals (or hold an attribute these facts cannot be read from)."""
    attr_name = CONSTANT_VALUE_ATTRS.get(name)
    if attr_name is None or attr_name not in operation.attributes:
        return None
    attr = operation.attributes[attr_name]
    parsed = _shape_and_element(attr.type)
    if parsed is None:
        return None
    shape, element = parsed
    numel = int(np.prod(shape)) if shape else 1
    item = ITEM_SIZE.get(element)
    if item is None:
        return None
    nbytes = numel * item
    dense = _as_dense(attr)
    resource = None
    if dense is not None:
        splat = dense.is_splat and numel > 1
        embedded = item if dense.is_splat else nbytes
    else:
        resource = _resource_key(attr)
        if resource is None:
            return None
        splat, embedded = False, nbytes
    return ConstantFacts(shape=list(shape), dtype=element, nbytes=nbytes, embedded_bytes=embedded, splat=splat,
                         resource=resource, attr=attr_name)


def _as_dense(attr):
    from torch_mlir import ir

    try:
        return ir.DenseElementsAttr(attr)
    except (ValueError, TypeError):
        return None


def _resource_key(attr) -> Optional[str]:
    from torch_mlir import ir

    try:
        ir.DenseResourceElementsAttr(attr)
    except (ValueError, TypeError):
        return None

    text = str(attr)  # dense_resource<KEY> : tensor<...>; the bindings have no accessor for the key
    body = text[len("dense_resource<"):]
    if body.startswith('"'):
        return read_mlir_string(body, 0)[0]
    return body.split(">", 1)[0]


def constant_array(operation, name: str, resources: Optional[dict] = None) -> Optional[np.ndarray]:
    """The values of a tensor constant, bit for bit (NaN, ±inf and payloads kept), full size even for a splat.
    `resources`: key -> raw bytes of the module's dense_resource blobs (see resource_blobs)."""
    facts = constant_facts(operation, name)
    if facts is None:
        return None
    attr = operation.attributes[facts.attr]
    dtype = np_dtype(facts.dtype) if facts.dtype in NP_DTYPES else None
    if dtype is None:
        return None
    shape = tuple(facts.shape)
    dense = _as_dense(attr)
    if dense is not None:
        try:
            memoryview(dense)
        except BufferError:  # bf16 and the like: these bindings give neither a buffer nor their elements
            return _array_from_printed_attr(str(attr), dtype, shape)
        if dense.is_splat:
            return np.full(shape, _splat_array(dense, dtype), dtype=dtype)
        return _buffer_array(dense, dtype, shape)
    key = facts.resource
    if resources is None or key not in resources:
        raise KeyError(f"dense_resource<{key}> has no blob in this module")
    data = resources[key]
    if facts.dtype == "i1":
        return np.frombuffer(data, dtype=np.uint8).astype(bool).reshape(shape)
    return np.frombuffer(data, dtype=dtype).reshape(shape).copy()


def _buffer_array(dense, dtype: np.dtype, shape: tuple) -> np.ndarray:
    """A non-splat DenseElementsAttr through the buffer protocol: the raw element bytes, no decimal round trip."""
    raw = np.array(dense, copy=True)
    if dtype == np.bool_:
        return raw.astype(bool).reshape(shape)
    if raw.dtype.itemsize == dtype.itemsize and raw.dtype != dtype:
        raw = raw.view(dtype)  # bf16 and unsigned types come out of the buffer as same-sized other types
    return raw.astype(dtype, copy=False).reshape(shape)


def _array_from_printed_attr(text: str, dtype: np.dtype, shape: tuple) -> np.ndarray:
    """An elements attribute from its own print, for element types the buffer protocol does not cover. Exact:
    MLIR prints a float in decimal only when the decimal reads back to the same bits, else as hex, and large
    attributes as one hex blob."""
    body = text[len("dense<"):text.rindex("> :")]
    bits = np.dtype(f"u{dtype.itemsize}")
    if body.startswith('"0x'):
        arr = np.frombuffer(bytes.fromhex(body[3:-1]), dtype=dtype)
    else:
        items = [t.strip() for t in body.replace("[", " ").replace("]", " ").split(",") if t.strip()]
        if all(t.startswith("0x") for t in items):
            arr = np.array([int(t, 16) for t in items], dtype=bits).view(dtype)
        else:
            arr = np.array([int(t, 16) if t.startswith("0x") else 0 for t in items], dtype=bits).view(dtype)
            for i, t in enumerate(items):
                if not t.startswith("0x"):
                    arr[i] = {"true": 1, "false": 0}.get(t, None) if t in ("true", "false") else float(t)
    numel = int(np.prod(shape)) if shape else 1
    return np.full(shape, arr[0], dtype=dtype) if arr.size == 1 and numel != 1 else arr.reshape(shape).copy()


def _splat_array(dense, dtype: np.dtype) -> np.ndarray:
    """The one element of a splat, bit for bit: the bindings hand it over as a typed attribute."""
    from torch_mlir import ir

    value = dense.get_splat_value()
    if isinstance(value, ir.FloatAttr) or _try(ir.FloatAttr, value) is not None:
        f = ir.FloatAttr(value).value  # a Python float: exact for f64/f32/f16/bf16 values, NaN and inf included
        return np.array(f, dtype=np.float64).astype(dtype)
    if _try(ir.BoolAttr, value) is not None:
        return np.array(ir.BoolAttr(value).value, dtype=dtype)
    i = ir.IntegerAttr(value)
    return np.array(i.value, dtype=np.int64 if dtype.kind == "i" else np.uint64).astype(dtype)


def _try(cls, value):
    try:
        return cls(value)
    except (ValueError, TypeError):
        return None


def resource_blobs(module) -> dict:
    """key -> raw bytes of every `dense_resource` blob of the module. The bindings cannot read a blob, so the
    module is printed once with its literals elided and its resources section in full, and that section read."""
    text = module.operation.get_asm(large_elements_limit=ELIDE_ABOVE)
    _, trailer = split_resources(text)
    return {k: bytes.fromhex(h) for k, h in blobs_of_trailer(trailer).items()}


def _constant_text(results: str, name: str, operation, facts: ConstantFacts) -> str:
    attr = operation.attributes[facts.attr]
    numel = int(np.prod(facts.shape)) if facts.shape else 1
    value = str(attr) if (facts.splat or numel <= ELIDE_ABOVE) and facts.resource is None else \
        f"{ELIDED} : {attr.type}"
    if name == "torch.vtensor.literal" or name == "torch.tensor.literal":
        return f"{results} = {name}({value}) : {operation.results[0].type}"
    if operation.name == "torch.operator":
        return f'{results} = torch.operator "{name}"() {{{facts.attr} = {value}}} : () -> {operation.results[0].type}'
    return f"{results} = {name} {value}"


def _one_line(text: str) -> str:
    """An op printed over several lines (a region) as one: its head, then its closing line."""
    lines = [l.strip() for l in text.strip().splitlines() if l.strip()]
    if len(lines) <= 1:
        return lines[0] if lines else ""
    return f"{lines[0]} … {lines[-1]}"


def _stage_operations(module):
    """(function name, AsmState of the function, Operation, op name) for every op of the stage, in printed order."""
    from torch_mlir import ir

    def visit(block, func, state):
        for child in block.operations:
            operation = child.operation
            name = op_name(operation)
            if is_structural(name):
                continue
            yield func, state, operation, name
            if name in CONTROL_FLOW_OPS:
                for region in operation.regions:
                    for inner in region.blocks:
                        yield from visit(inner, func, state)

    for top in module.body.operations:
        top = top.operation
        if top.name != "func.func":
            continue
        func = ir.StringAttr(top.attributes["sym_name"]).value
        state = ir.AsmState(top, False)
        for block in top.regions[0].blocks:
            yield from visit(block, func, state)


def main_function(module):
    """The `func.func @main` operation of `module`, or None."""
    from torch_mlir import ir

    return next((op.operation for op in module.body.operations if op.operation.name == "func.func"
                 and ir.StringAttr(op.operation.attributes["sym_name"]).value == "main"), None)


def walk_ops(module) -> list:
    """The ops of every function of `module`, in printed order (see the module doc for which ops count)."""
    from torch_mlir import ir

    unknown = ir.UnknownLoc.static_typeid
    frames_of: dict = {}  # location attribute -> frames: ops of one source line share their location
    bytes_of: dict = {}  # type -> bytes of a value of it: a stage holds few distinct types (uniqued, hashable)
    ops: list = []
    for func, state, operation, name in _stage_operations(module):
        results = [r.get_name(state) for r in operation.results]
        facts = constant_facts(operation, name)
        if facts is not None:
            text = _constant_text(", ".join(results), name, operation, facts)
        else:
            buffer = io.StringIO()
            operation.print(state, buffer)
            text = _one_line(buffer.getvalue())
        location = operation.location
        key = location.attr
        read = frames_of.get(key)
        if read is None:
            read = frames_of[key] = read_location(location)
        chain, module_path = read
        attrs = {"func": func, "has_loc": location.typeid != unknown, "results": tuple(results),
                 "operands": tuple(v.get_name(state) for v in operation.operands),
                 "result_bytes": sum(_cached_bytes(r.type, bytes_of) for r in operation.results)}
        if facts is not None:
            attrs["constant"] = facts
        ops.append(Op(index=len(ops), name=name, location=user_frame(chain), chain=chain, text=text, attrs=attrs,
                      module=module_path))
    return ops


def stage_operations(module) -> list:
    """The live `Operation` of each op, indexed as walk_ops numbers them."""
    return [operation for _, _, operation, _ in _stage_operations(module)]


def constant_arrays(module) -> dict:
    """op index -> numpy values of each tensor constant."""
    out, blobs = {}, None
    for index, (_, _, operation, name) in enumerate(_stage_operations(module)):
        if name not in CONSTANT_VALUE_ATTRS:
            continue
        facts = constant_facts(operation, name)
        if facts is None:
            continue
        if facts.resource is not None and blobs is None:
            blobs = resource_blobs(module)
        array = constant_array(operation, name, blobs)
        if array is not None:
            out[index] = array
    return out
