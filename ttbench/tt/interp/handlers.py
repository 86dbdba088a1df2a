"""One handler per TTIR/TTNN op kind, each written from the op's documented semantics: tt-mlir's op definitions
(TTIROps.td / TTNNOps.td descriptions) and ttnn's API documentation and golden functions (`ttnn.get_golden_function`,
whose sources document conv2d's flattened layout and gelu's default). Nothing is copied from them; each docstring
names what it follows. Results are cast to the IR's element type by the engine, which also checks their shape.

One file on purpose (~700 lines, over the house's ~400): it is the registry read as one table, grouped by kind
(element-wise, layout and creation, data movement, reductions, matrix products, convolution and pooling).
"""
from __future__ import annotations

import math
import re

import torch
import torch.nn.functional as F

from ...ir.attributes import Dense, Opaque, decode_number, plain
from ...ir.walk import np_dtype
from ..program import parse_type
from .registry import InPlace, InterpreterBug, Unsupported, handles, torch_dtype

_ACTIVATION_ATTRS = ("activations", "input_tensor_a_activations", "input_tensor_b_activations")


def _attr(op, name, default=None):
    value = op.attributes.get(name, default)
    return plain(value)


def _shape_attr(op, name):
    """`#ttnn.shape<1x32>` or `[1 : i32, 32 : i32]` -> (1, 32)."""
    value = op.attributes.get(name)
    if isinstance(value, Opaque):
        body = value.body.strip()
        return tuple(int(d) for d in body.split("x")) if body else ()
    if isinstance(value, list):
        return tuple(int(plain(v)) for v in value)
    raise Unsupported(op.op, f"{name} = {value!r}")


def _result_shape(op, k=0):
    return op.result_types[k].shape


def _result_dtype(op, k=0):
    return torch_dtype(op.result_types[k])


# --- unary and binary element-wise ------------------------------------------------------------------------------

def _gelu_erf(x):
    return F.gelu(x.float() if x.dtype == torch.bfloat16 else x).to(x.dtype)


UNARY = {
    "abs": torch.abs, "exp": torch.exp, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt, "tanh": torch.tanh,
    "sigmoid": torch.sigmoid, "relu": torch.relu, "neg": torch.neg, "log": torch.log, "sin": torch.sin,
    "cos": torch.cos, "erf": torch.erf, "reciprocal": torch.reciprocal, "floor": torch.floor, "ceil": torch.ceil,
    "sign": torch.sign, "logical_not": torch.logical_not, "relu6": lambda x: torch.clamp(x, 0, 6),
    "silu": F.silu, "log1p": torch.log1p, "expm1": torch.expm1, "square": torch.square,
    # ttnn.gelu's documented default is the exact (erf) form: fast_and_approximate_mode=False.
    "gelu": _gelu_erf,
}
# Ops whose printed form leaves a choice ttnn's documentation settles: each reading by name, the documented one
# first (the one the handler computes). The semantics analysis computes every reading and says which matches the
# source line in PyTorch.
GELU_DOCUMENTED = "erf (ttnn.gelu's documented default, fast_and_approximate_mode=False)"
READINGS = {
    "ttnn.gelu": {GELU_DOCUMENTED: _gelu_erf,
                  "tanh approximation": lambda x: F.gelu(x.float(), approximate="tanh").to(x.dtype)},
}
# Fused activations (`#ttnn.unary_with_param<op_type = relu>`): the same table.
ACTIVATIONS = {name: fn for name, fn in UNARY.items() if name not in ("logical_not",)}


def _apply_activations(op, key, x):
    for act in op.attributes.get(key) or []:
        if not isinstance(act, Opaque) or act.name != "#ttnn.unary_with_param":
            raise Unsupported(op.op, f"{key} entry {act!r}")
        fields = act.fields()
        kind = fields.get("op_type")
        kind = kind.name if isinstance(kind, Opaque) else kind
        if fields.get("params"):
            raise Unsupported(op.op, f"a parameterised fused activation ({key} = {act.body})")
        if kind not in ACTIVATIONS:
            raise Unsupported(op.op, f"fused activation {kind!r} in {key}")
        x = ACTIVATIONS[kind](x)
    return x


def _unary(fn):
    def run(ctx, op, args):
        return fn(args[0])
    return run


for _name, _fn in UNARY.items():
    handles(f"ttir.{_name}", f"ttnn.{_name}",
            reference=f"tt-mlir TTIR/TTNN {_name}: element-wise {_name}")(_unary(_fn))


def _int_divide(a, b):
    return torch.div(a, b, rounding_mode="trunc")  # stablehlo.divide on integers rounds toward zero


def _divide(a, b):
    if not a.dtype.is_floating_point and not b.dtype.is_floating_point:
        return _int_divide(a, b)
    return a / b


BINARY = {
    "add": torch.add, "subtract": torch.sub, "multiply": torch.mul, "div": _divide, "divide": _divide,
    "maximum": torch.maximum, "minimum": torch.minimum, "pow": torch.pow, "pow_tensor": torch.pow,
    "remainder": torch.remainder,
    "eq": torch.eq, "ne": torch.ne, "ge": torch.ge, "gt": torch.gt, "le": torch.le, "lt": torch.lt,
    "logical_and": torch.logical_and, "logical_or": torch.logical_or, "logical_xor": torch.logical_xor,
    "atan2": torch.atan2,
}


def _binary(fn):
    def run(ctx, op, args):
        a = _apply_activations(op, "input_tensor_a_activations", args[0])
        b = _apply_activations(op, "input_tensor_b_activations", args[1])
        value = fn(a, b)
        if ctx.record and op.attributes.get("activations"):
            # recorded before the fused activation: that is the value its own source line computes (the
            # activation's line may be another: resnet's residual add and the relu after it)
            ctx.before_activation[op.op.index] = value
        return _apply_activations(op, "activations", value)

    def prepare(op):
        """Without fused activations (most ops) the op is the bare function: no attribute read per run."""
        if any(op.attributes.get(key) for key in _ACTIVATION_ATTRS):
            for key in _ACTIVATION_ATTRS:  # an unknown activation refuses before anything runs
                _apply_activations(op, key, torch.zeros(1))
            return run
        return lambda ctx, op, args: fn(args[0], args[1])

    run.prepare = prepare
    return run


for _name, _fn in BINARY.items():
    handles(f"ttir.{_name}", f"ttnn.{_name}", attributes=_ACTIVATION_ATTRS,
            reference=f"tt-mlir TTIR/TTNN {_name}: element-wise with NumPy broadcasting; TTNN's fused "
                      f"input_tensor_a/b_activations apply to an operand before it, activations to the result"
            )(_binary(_fn))


@handles("ttnn.pow_scalar", attributes=("rhs",), reference="ttnn.pow with a scalar exponent")
def _pow_scalar(ctx, op, args):
    return torch.pow(args[0], _attr(op, "rhs"))


@handles("ttir.where", "ttnn.where", reference="ttnn.where(condition, a, b): a where condition is non-zero")
def _where(ctx, op, args):
    cond, a, b = args
    return torch.where(cond != 0, a, b)


@handles("ttir.clamp_tensor", "ttnn.clamp_tensor", reference="clamp(x, min, max) with tensor bounds")
def _clamp_tensor(ctx, op, args):
    x, lo, hi = args
    return torch.minimum(torch.maximum(x, lo), hi)


@handles("ttir.clamp_scalar", "ttnn.clamp_scalar", attributes=("min", "max"),
         reference="ttnn.clamp(x, min, max) with scalar bounds")
def _clamp_scalar(ctx, op, args):
    return torch.clamp(args[0], min=_attr(op, "min"), max=_attr(op, "max"))


# --- layout, placement and type: values pass through ---------------------------------------------------------

@handles("ttnn.to_layout", "ttnn.to_device", "ttnn.from_device", "ttnn.to_memory_config", "ttnn.typecast",
         "ttir.typecast", "ttnn.to_dtype", "ttir.to_layout",
         reference="layout/placement ops move a tensor (tile or row-major, host or device, memory config) without "
                   "changing its values; a typecast's target is the result's element type (the engine casts)")
def _identity(ctx, op, args):
    return args[0]


_DEVICE = object()  # what ttnn.get_device hands on: a handle, not a tensor


@handles("ttnn.get_device", reference="ttnn.get_device: the device handle other ops take")
def _get_device(ctx, op, args):
    return _DEVICE


@handles("ttnn.deallocate", reference="ttnn.deallocate frees a device buffer: no value")
def _deallocate(ctx, op, args):
    return []


@handles("ttcore.load_cached", reference="ttcore.load_cached(@f, args): the const-eval function's results, "
                                         "computed once per argument set")
def _load_cached(ctx, op, args):
    fn = ctx.program.functions.get(op.callee)
    if fn is None:
        raise InterpreterBug(f"ttcore.load_cached #{op.op.index} calls @{op.callee}, which the program lacks")
    key = (op.callee, tuple(id(a) for a in args))
    if key not in ctx.const_eval_cache:
        ctx.const_eval_cache[key] = ctx.call(fn, args)
    return ctx.const_eval_cache[key]


# --- creation ------------------------------------------------------------------------------------------------

@handles("ttnn.full", attributes=("fill_value", "shape"), reference="ttnn.full(shape, fill_value)")
def _full(ctx, op, args):
    return torch.full(_shape_attr(op, "shape"), _attr(op, "fill_value"), dtype=torch.float64)


@handles("ttnn.ones", "ttnn.zeros", attributes=("shape",), reference="ttnn.ones / ttnn.zeros(shape)")
def _ones_zeros(ctx, op, args):
    fill = 1 if op.name.endswith("ones") else 0
    return torch.full(_shape_attr(op, "shape"), fill, dtype=_result_dtype(op))


@handles("ttir.arange", "ttnn.arange", attributes=("start", "end", "step", "arange_dimension"),
         reference="arange(start, end, step) along arange_dimension (TTIR), broadcast to the result shape")
def _arange(ctx, op, args):
    values = torch.arange(_attr(op, "start"), _attr(op, "end"), _attr(op, "step"), dtype=torch.float64)
    shape = _result_shape(op)
    dim = _attr(op, "arange_dimension", 0 if len(shape) == 1 else None)
    if dim is None:
        raise Unsupported(op.op, "an arange of rank > 1 without arange_dimension")
    view = [1] * len(shape)
    view[dim] = values.numel()
    return values.reshape(view).expand(shape).clone()


def _dense_value(ctx, op, value: Dense):
    t = parse_type(value.type) if value.type else op.result_types[0]  # the literal's own type; the engine casts
    body = value.body.strip()
    if value.resource:
        if value.resource not in ctx.program.resources:
            raise Unsupported(op.op, f"dense_resource<{value.resource}> (its blob is not in the stage's text)")
        body = '"0x' + ctx.program.resources[value.resource] + '"'
    dtype = torch_dtype(t)
    if body.startswith('"0x'):
        import numpy as np

        raw = bytes.fromhex(body[3:-1])
        arr = np.frombuffer(raw, dtype=np_dtype(t.element))
        if arr.size == 1:
            return torch.from_numpy(arr.astype(np.float64) if t.element == "bf16" else arr.copy()).reshape(()) \
                .expand(t.shape).to(dtype).clone()
        return torch.from_numpy(arr.astype(np.float32) if t.element == "bf16" else arr.copy()).reshape(t.shape)
    values = _literal(body, t.element)
    tensor = torch.tensor(values, dtype=torch.float64 if dtype.is_floating_point else torch.int64)
    if tensor.numel() == 1:
        return tensor.reshape(()).expand(t.shape).clone()
    return tensor.reshape(t.shape)


_ELEMENT_RE = re.compile(r"-?0x[0-9A-Fa-f]+|true|false|[-+]?(?:inf|nan|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)")


def _literal(body: str, element: str) -> list:
    """The elements of a dense<...> literal, flat, in order: numbers, true/false, and hex bit patterns (MLIR prints
    non-finite floats as 0xFF800000), decoded for the element type."""
    out = []
    for token in _ELEMENT_RE.findall(body):
        if token in ("true", "false"):
            out.append(1 if token == "true" else 0)
        else:
            out.append(decode_number(token, element))
    if not out:
        raise ValueError(f"unreadable dense literal {body[:60]!r}")
    return out


@handles("ttir.constant", "ttnn.constant", attributes=("value",), reference="a tensor constant")
def _constant(ctx, op, args):
    value = op.attributes.get("value")
    if not isinstance(value, Dense):
        raise Unsupported(op.op, f"constant value {value!r}")
    return _dense_value(ctx, op, value)


# --- shape and data movement ---------------------------------------------------------------------------------

@handles("ttir.reshape", "ttnn.reshape", attributes=("shape",), reference="reshape to `shape` (row-major)")
def _reshape(ctx, op, args):
    return args[0].reshape(_shape_attr(op, "shape"))


def _prepare_reshape(op):
    shape = _shape_attr(op, "shape")
    return lambda ctx, op, args: args[0].reshape(shape)


_reshape.prepare = _prepare_reshape


@handles("ttir.permute", "ttnn.permute", attributes=("permutation", "pad_value"),
         reference="permute dimensions: result dim i is input dim permutation[i]")
def _permute(ctx, op, args):
    return args[0].permute(_attr(op, "permutation"))


def _prepare_permute(op):
    permutation = _attr(op, "permutation")
    return lambda ctx, op, args: args[0].permute(permutation)


_permute.prepare = _prepare_permute


@handles("ttir.transpose", "ttnn.transpose", attributes=("dim0", "dim1"),
         reference="swap two dimensions (negative dims count from the end), as torch.transpose")
def _transpose(ctx, op, args):
    return args[0].transpose(_attr(op, "dim0"), _attr(op, "dim1"))


@handles("ttir.broadcast", attributes=("broadcast_dimensions",),
         reference="TTIR broadcast: broadcast_dimensions are repeat factors per dimension (1 keeps it)")
def _broadcast(ctx, op, args):
    return args[0].repeat(_attr(op, "broadcast_dimensions"))


@handles("ttnn.repeat", attributes=("repeat_dims",), reference="ttnn.repeat(x, repeat_dims)")
def _repeat(ctx, op, args):
    return args[0].repeat(_shape_attr(op, "repeat_dims"))


@handles("ttnn.repeat_interleave", "ttir.repeat_interleave", attributes=("repeats", "dim"),
         reference="ttnn.repeat_interleave(x, repeats, dim): each slice along dim repeated `repeats` times in place")
def _repeat_interleave(ctx, op, args):
    return torch.repeat_interleave(args[0], _attr(op, "repeats"), dim=_attr(op, "dim"))


@handles("ttir.concat", "ttnn.concat", attributes=("dim",), reference="concatenate along dim")
def _concat(ctx, op, args):
    return torch.cat([a.to(_result_dtype(op)) for a in args], dim=_attr(op, "dim"))


@handles("ttir.slice_static", "ttnn.slice_static", attributes=("begins", "ends", "step"),
         reference="slice [begins, ends) with step per dimension")
def _slice(ctx, op, args):
    x = args[0]
    index = []
    for b, e, s in zip(_attr(op, "begins"), _attr(op, "ends"), _attr(op, "step")):
        if s <= 0:
            raise Unsupported(op.op, f"slice step {s}")
        index.append(slice(b, e, s))
    return x[tuple(index)]


@handles("ttir.pad", "ttnn.pad", attributes=("padding", "value"),
         reference="pad: `padding` holds (low, high) per dimension, in dimension order; value fills")
def _pad(ctx, op, args):
    x = args[0]
    pairs = _attr(op, "padding")
    if len(pairs) != 2 * x.dim():
        raise Unsupported(op.op, f"padding of {len(pairs)} values for rank {x.dim()}")
    torch_pad = []
    for d in reversed(range(x.dim())):  # torch wants the last dimension first
        torch_pad.extend([pairs[2 * d], pairs[2 * d + 1]])
    return F.pad(x, torch_pad, value=_attr(op, "value", 0.0))


@handles("ttir.reverse", "ttnn.reverse", attributes=("dimensions",), reference="reverse along dimensions")
def _reverse(ctx, op, args):
    return torch.flip(args[0], _attr(op, "dimensions"))


@handles("ttir.cumsum", "ttnn.cumsum", attributes=("dim",), reference="cumulative sum along dim")
def _cumsum(ctx, op, args):
    return torch.cumsum(args[0], dim=_attr(op, "dim"))


@handles("ttir.rows_gather", "ttnn.rows_gather", attributes=("column", "sizes", "windows", "fill_out_of_bounds"),
         reference="tt-mlir's gather: the K index components (indices' dimension 1) address a row-major grid of "
                   "`sizes`; column=false gathers whole rows (input viewed as [prod(sizes), rest]), column=true "
                   "single elements of the input flattened")
def _rows_gather(ctx, op, args):
    data, indices = args
    sizes = _attr(op, "sizes")
    if any(w != 1 for w in _attr(op, "windows")):
        raise Unsupported(op.op, f"rows_gather windows = {_attr(op, 'windows')}")
    if _attr(op, "fill_out_of_bounds"):
        raise Unsupported(op.op, "rows_gather fill_out_of_bounds = true")
    if indices.dim() != 3 or indices.shape[0] != 1 or indices.shape[1] != len(sizes):
        raise Unsupported(op.op, f"rows_gather indices of shape {tuple(indices.shape)} for sizes {sizes}")
    components = indices[0].to(torch.int64)  # [K, N]
    flat = torch.zeros(components.shape[1], dtype=torch.int64)
    for k, size in enumerate(sizes):
        c = components[k]
        if bool(((c < 0) | (c >= size)).any()):
            raise InterpreterBug(f"rows_gather #{op.op.index}: an index component {k} lies outside 0..{size - 1} "
                                 f"(fill_out_of_bounds is false: the program reads out of bounds)")
        flat = flat * size + c
    rows = math.prod(sizes)
    if _attr(op, "column"):
        if data.numel() != rows:
            raise Unsupported(op.op, f"rows_gather column=true over {data.numel()} elements with sizes {sizes}")
        gathered = data.reshape(-1)[flat]
    else:
        if data.numel() % rows:
            raise Unsupported(op.op, f"rows_gather of {tuple(data.shape)} rows by sizes {sizes}")
        gathered = data.reshape(rows, -1)[flat]
    return gathered.reshape(_result_shape(op))


# --- reductions ----------------------------------------------------------------------------------------------

def _reduce(fn):
    def run(ctx, op, args):
        x = args[0]
        dims = _attr(op, "dim_arg")
        keep = bool(_attr(op, "keep_dim", False))
        dims = list(range(x.dim())) if dims is None else [d % x.dim() for d in dims]
        out = x
        for d in sorted(dims, reverse=True):
            out = fn(out, d, keep)
        return out
    return run


REDUCTIONS = {
    "sum": lambda x, d, k: torch.sum(x, dim=d, keepdim=k),
    "mean": lambda x, d, k: torch.mean(x, dim=d, keepdim=k),
    "max": lambda x, d, k: torch.amax(x, dim=d, keepdim=k),
    "min": lambda x, d, k: torch.amin(x, dim=d, keepdim=k),
    "prod": lambda x, d, k: torch.prod(x, dim=d, keepdim=k),
    "reduce_and": lambda x, d, k: torch.all(x != 0, dim=d, keepdim=k),
    "reduce_or": lambda x, d, k: torch.any(x != 0, dim=d, keepdim=k),
}
for _name, _fn in REDUCTIONS.items():
    handles(f"ttir.{_name}", f"ttnn.{_name}", attributes=("dim_arg", "keep_dim"),
            reference=f"{_name} over dim_arg (all dimensions when absent), keep_dim keeps them as size 1"
            )(_reduce(_fn))


@handles("ttnn.softmax", "ttir.softmax", attributes=("dimension", "numericStable"),
         reference="ttnn.softmax along `dimension`; numericStable subtracts the maximum first (same value in "
                   "exact arithmetic; torch's softmax always does)")
def _softmax(ctx, op, args):
    x = args[0]
    return torch.softmax(x.float() if x.dtype == torch.bfloat16 else x, dim=_attr(op, "dimension")).to(x.dtype)


def _segments(op, args, names):
    """Operands by name from `operandSegmentSizes` (optional operands absent: None)."""
    sizes = _attr(op, "operandSegmentSizes") or [1] * len(args)
    out, at = {}, 0
    for name, size in zip(names, sizes):
        if size > 1:
            raise Unsupported(op.op, f"{size} operands for {name}")
        out[name] = args[at] if size else None
        at += size
    return out


@handles("ttnn.rms_norm", "ttir.rms_norm", attributes=("epsilon", "operandSegmentSizes", "normalized_shape"),
         reference="ttnn.rms_norm(x, weight, bias, epsilon): x / sqrt(mean(x^2 over the last dim) + epsilon), "
                   "times weight, plus bias")
def _rms_norm(ctx, op, args):
    if op.attributes.get("normalized_shape") is not None and len(_attr(op, "normalized_shape")) != 1:
        raise Unsupported(op.op, f"rms_norm over {_attr(op, 'normalized_shape')}")
    parts = _segments(op, args, ("input", "weight", "bias"))
    x = parts["input"]
    compute = torch.float32 if x.dtype == torch.bfloat16 else x.dtype
    xc = x.to(compute)
    out = xc * torch.rsqrt(xc.pow(2).mean(-1, keepdim=True) + _attr(op, "epsilon"))
    if parts["weight"] is not None:
        out = out * parts["weight"]
    if parts["bias"] is not None:
        out = out + parts["bias"]
    return out


@handles("ttnn.layer_norm", "ttir.layer_norm", attributes=("epsilon", "operandSegmentSizes", "normalized_shape"),
         reference="ttnn.layer_norm(x, weight, bias, epsilon) over the last dimension")
def _layer_norm(ctx, op, args):
    if op.attributes.get("normalized_shape") is not None and len(_attr(op, "normalized_shape")) != 1:
        raise Unsupported(op.op, f"layer_norm over {_attr(op, 'normalized_shape')}")
    parts = _segments(op, args, ("input", "weight", "bias"))
    x = parts["input"]
    return F.layer_norm(x.float() if x.dtype == torch.bfloat16 else x, x.shape[-1:], parts["weight"], parts["bias"],
                        _attr(op, "epsilon"))


# --- in-place cache updates ----------------------------------------------------------------------------------

@handles("ttir.update_cache", attributes=("batch_offset",),
         reference="tt-mlir update_cache(cache [B, H, S, D], input [B, H, 1, D], update_index [1]): writes the "
                   "input's token at position update_index of every batch and head (in place)")
def _update_cache(ctx, op, args):
    cache, update, index = args
    if _attr(op, "batch_offset", 0) != 0:
        raise Unsupported(op.op, f"update_cache batch_offset = {_attr(op, 'batch_offset')}")
    position = int(index.reshape(-1)[0])
    if not 0 <= position < cache.shape[2] or update.shape[2] != 1:
        raise InterpreterBug(f"update_cache #{op.op.index}: position {position} of a cache of {cache.shape[2]}")
    updated = cache.clone()
    updated[:, :, position, :] = update[:, :, 0, :]
    return InPlace({0: updated})


@handles("ttnn.paged_update_cache", attributes=("share_cache",),
         reference="ttnn.experimental.paged_update_cache(cache [B, H, S, D], input [1, B, H, D], update_idxs [B]) "
                   "without a page table: batch b's token written at position update_idxs[b] (in place)")
def _paged_update_cache(ctx, op, args):
    if _attr(op, "share_cache", False):
        raise Unsupported(op.op, "paged_update_cache share_cache = true")
    if len(args) != 3:
        raise Unsupported(op.op, f"paged_update_cache with {len(args)} operands (a page table)")
    cache, update, indices = args
    updated = cache.clone()
    for b, position in enumerate(indices.reshape(-1).tolist()):
        if not 0 <= position < cache.shape[2]:
            raise InterpreterBug(f"paged_update_cache #{op.op.index}: position {position} of a cache of "
                                 f"{cache.shape[2]}")
        updated[b, :, position, :] = update[0, b, :, :]
    return InPlace({0: updated})


# --- matrix products -----------------------------------------------------------------------------------------

@handles("ttir.dot_general", attributes=("batch_dims_lhs", "batch_dims_rhs", "contract_dims_lhs",
                                         "contract_dims_rhs"),
         reference="stablehlo.dot_general semantics: result dims are batch, lhs free, rhs free")
def _dot_general(ctx, op, args):
    lhs, rhs = args
    bl, br = _attr(op, "batch_dims_lhs"), _attr(op, "batch_dims_rhs")
    cl, cr = _attr(op, "contract_dims_lhs"), _attr(op, "contract_dims_rhs")
    fl = [d for d in range(lhs.dim()) if d not in bl and d not in cl]
    fr = [d for d in range(rhs.dim()) if d not in br and d not in cr]
    lhs_m = lhs.permute(bl + fl + cl)
    rhs_m = rhs.permute(br + cr + fr)
    batch = [lhs.shape[d] for d in bl]
    m = math.prod(lhs.shape[d] for d in fl)
    n = math.prod(rhs.shape[d] for d in fr)
    k = math.prod(lhs.shape[d] for d in cl)
    out = torch.matmul(lhs_m.reshape(batch + [m, k]), rhs_m.reshape(batch + [k, n]))
    return out.reshape(batch + [lhs.shape[d] for d in fl] + [rhs.shape[d] for d in fr])


def _matmul_operands(op, a, b):
    if _attr(op, "transpose_a", False):
        a = a.transpose(-1, -2)
    if _attr(op, "transpose_b", False):
        b = b.transpose(-1, -2)
    return a, b


@handles("ttnn.matmul", "ttir.matmul", attributes=("transpose_a", "transpose_b"),
         reference="ttnn.matmul(a, b, transpose_a, transpose_b): batched matmul with broadcast batch dimensions, "
                   "each operand's last two dimensions transposed first when asked")
def _matmul(ctx, op, args):
    a, b = _matmul_operands(op, args[0], args[1])
    return torch.matmul(a, b)


@handles("ttnn.linear", "ttir.linear", attributes=("transpose_a", "transpose_b", "activation"),
         reference="ttnn.linear(a, b, bias, transpose_a, transpose_b, activation): matmul plus bias broadcast "
                   "over the last dimension")
def _linear(ctx, op, args):
    a, b = _matmul_operands(op, args[0], args[1])
    out = torch.matmul(a, b)
    if len(args) > 2 and isinstance(args[2], torch.Tensor):
        out = out + args[2]
    activation = _attr(op, "activation")
    if activation:
        if activation not in ACTIVATIONS:
            raise Unsupported(op.op, f"linear activation {activation!r}")
        out = ACTIVATIONS[activation](out)
    return out


# --- convolution and pooling ---------------------------------------------------------------------------------

def _pairs(value, n=2):
    value = plain(value)
    if isinstance(value, int):
        return [value] * n
    return list(value)


def _nchw_from_ttir(op, x):
    dims = [_attr(op, "batch_dim", 0), _attr(op, "channel_dim", 1), _attr(op, "height_dim", 2),
            _attr(op, "width_dim", 3)]
    return x.permute(dims), dims


def _conv_padding_ttir(op):
    """TTIR's 4-value padding is [top, left, bottom, right] (2 values: [height, width])."""
    p = _pairs(op.attributes.get("padding", 0), 4)
    if len(p) == 2:
        return p[0], p[0], p[1], p[1]
    top, left, bottom, right = p
    return top, bottom, left, right


def _conv_padding_ttnn(op):
    """TTNN's 4-value padding is ttnn's (pad_top, pad_bottom, pad_left, pad_right); 2 values: (height, width)."""
    p = _pairs(op.attributes.get("padding", 0), 4)
    if len(p) == 2:
        return p[0], p[0], p[1], p[1]
    return tuple(p)


def _conv(x, weight, bias, stride, tblr, dilation, groups, transposed=False, output_padding=(0, 0)):
    top, bottom, left, right = tblr
    compute = torch.float32 if x.dtype == torch.bfloat16 else x.dtype
    x, weight = x.to(compute), weight.to(compute)
    b = bias.reshape(-1).to(compute) if isinstance(bias, torch.Tensor) else None
    if transposed:
        if top != bottom or left != right:  # padding crops a transposed conv's full output, side by side
            full = F.conv_transpose2d(x, weight, None, stride=stride, groups=groups, dilation=dilation)
            full = F.pad(full, (0, output_padding[1], 0, output_padding[0]))
            out = full[:, :, top:full.shape[2] - bottom, left:full.shape[3] - right]
            return out if b is None else out + b.reshape(1, -1, 1, 1)
        return F.conv_transpose2d(x, weight, b, stride=stride, padding=(top, left), output_padding=output_padding,
                                  groups=groups, dilation=dilation)
    if top != bottom or left != right:
        x = F.pad(x, (left, right, top, bottom))
        top = bottom = left = right = 0
    return F.conv2d(x, weight, b, stride=stride, padding=(top, left), dilation=dilation, groups=groups)


@handles("ttir.conv2d", "ttir.conv_transpose2d",
         attributes=("batch_dim", "channel_dim", "height_dim", "width_dim", "dilation", "groups", "padding",
                     "stride", "output_padding"),
         reference="TTIR conv2d: input dims named by batch/channel/height/width_dim, weight [O, I/groups, kH, kW] "
                   "(transposed: [I, O/groups, kH, kW]), padding [top, left, bottom, right]")
def _ttir_conv(ctx, op, args):
    x, dims = _nchw_from_ttir(op, args[0])
    bias = args[2] if len(args) > 2 else None
    transposed = op.name.endswith("transpose2d")
    out = _conv(x, args[1], bias, _pairs(op.attributes.get("stride", 1)), _conv_padding_ttir(op),
                _pairs(op.attributes.get("dilation", 1)), _attr(op, "groups", 1), transposed,
                _pairs(op.attributes.get("output_padding", 0)))
    inverse = [dims.index(i) for i in range(4)]
    return out.permute(inverse)


def _flat_nhwc_to_nchw(op, x, channels):
    n, h, w = _attr(op, "batch_size"), _attr(op, "input_height"), _attr(op, "input_width")
    if x.numel() != n * h * w * channels:
        raise InterpreterBug(f"{op.name} #{op.op.index}: input of {x.numel()} elements is not "
                             f"{n}x{h}x{w}x{channels}")
    return x.reshape(n, h, w, channels).permute(0, 3, 1, 2)


def _nchw_to_flat_nhwc(x):
    n, c, h, w = x.shape
    return x.permute(0, 2, 3, 1).reshape(1, 1, n * h * w, c)


@handles("ttnn.conv2d", "ttnn.conv_transpose2d",
         attributes=("batch_size", "input_height", "input_width", "in_channels", "out_channels", "kernel_size",
                     "stride", "padding", "dilation", "groups", "output_padding"),
         reference="ttnn.conv2d: input flattened NHWC [1, 1, N*H*W, C] with batch_size/input_height/input_width, "
                   "weight [O, I/groups, kH, kW], bias [1, 1, 1, O], output [1, 1, N*OH*OW, O]; padding "
                   "(top, bottom, left, right) or (height, width)")
def _ttnn_conv(ctx, op, args):
    x = _flat_nhwc_to_nchw(op, args[0], _attr(op, "in_channels"))
    bias = args[2] if len(args) > 2 and isinstance(args[2], torch.Tensor) else None
    transposed = op.name.endswith("transpose2d")
    if transposed:
        _check_transposed_padding_order(op, x)
    out = _conv(x, args[1], bias, _pairs(op.attributes.get("stride", 1)), _conv_padding_ttnn(op),
                _pairs(op.attributes.get("dilation", 1)), _attr(op, "groups", 1), transposed,
                _pairs(op.attributes.get("output_padding", 0)))
    return _nchw_to_flat_nhwc(out)


def _check_transposed_padding_order(op, x):
    """A 4-value padding of ttnn.conv_transpose2d is read as ttnn reads it, (top, bottom, left, right). Where that
    reading does not give the op's own result type and TTIR's order (top, left, bottom, right) does, the compiler
    wrote TTIR's order: what the chip computes then is not what the IR says, and no reading is guessed."""
    p = _pairs(op.attributes.get("padding", 0), 4)
    if len(p) != 4 or p[1] == p[2]:
        return  # 2 values, or both readings the same

    (sh, sw), (dh, dw) = _pairs(op.attributes.get("stride", 1)), _pairs(op.attributes.get("dilation", 1))
    (kh, kw), (oh, ow) = _pairs(op.attributes.get("kernel_size")), _pairs(op.attributes.get("output_padding", 0))
    n, h, w = x.shape[0], x.shape[2], x.shape[3]

    def elements(top, bottom, left, right):
        return n * ((h - 1) * sh - top - bottom + dh * (kh - 1) + oh + 1) * \
            ((w - 1) * sw - left - right + dw * (kw - 1) + ow + 1)

    want = op.result_types[0].shape[2] if op.result_types[0] is not None else None
    as_ttnn, as_ttir = elements(p[0], p[1], p[2], p[3]), elements(p[0], p[2], p[1], p[3])
    if want is not None and as_ttnn != want and as_ttir == want:
        raise Unsupported(op.op, why=f"its padding {p} read as ttnn reads it (top, bottom, left, right) gives "
                                     f"{as_ttnn} output pixels, and its result type has {want}, which is what TTIR's "
                                     f"order (top, left, bottom, right) gives: the compiler and ttnn disagree on "
                                     f"this op, so no value is computed for it")


def _pool(x, kind, kernel, stride, tblr, dilation, ceil_mode, count_include_pad=True):
    top, bottom, left, right = tblr
    compute = torch.float32 if x.dtype == torch.bfloat16 else x.dtype
    x = x.to(compute)
    if top != bottom or left != right:
        fill = -math.inf if kind == "max" else 0.0
        x = F.pad(x, (left, right, top, bottom), value=fill)
        top = bottom = left = right = 0
    if kind == "max":
        return F.max_pool2d(x, kernel, stride, (top, left), dilation, ceil_mode=ceil_mode)
    if dilation != [1, 1]:
        raise ValueError("a dilated average pool")
    return F.avg_pool2d(x, kernel, stride, (top, left), ceil_mode=ceil_mode, count_include_pad=count_include_pad)


@handles("ttir.max_pool2d", "ttir.avg_pool2d",
         attributes=("kernel", "stride", "padding", "dilation", "ceil_mode", "count_include_pad"),
         reference="TTIR pooling on NHWC input; padding [top, left, bottom, right]")
def _ttir_pool(ctx, op, args):
    x = args[0].permute(0, 3, 1, 2)
    kind = "max" if "max" in op.name else "avg"
    out = _pool(x, kind, _pairs(op.attributes.get("kernel")), _pairs(op.attributes.get("stride", 1)),
                _conv_padding_ttir(op), _pairs(op.attributes.get("dilation", 1)),
                bool(_attr(op, "ceil_mode", False)), bool(_attr(op, "count_include_pad", True)))
    return out.permute(0, 2, 3, 1)


@handles("ttnn.max_pool2d", "ttnn.avg_pool2d",
         attributes=("batch_size", "input_height", "input_width", "channels", "kernel_size", "stride", "padding",
                     "dilation", "ceil_mode", "count_include_pad", "in_place_halo"),
         reference="ttnn.max_pool2d / avg_pool2d on flattened NHWC [1, 1, N*H*W, C] (batch_size, input_height, "
                   "input_width, channels); padding (height, width) or (top, bottom, left, right)")
def _ttnn_pool(ctx, op, args):
    x = _flat_nhwc_to_nchw(op, args[0], _attr(op, "channels"))
    kind = "max" if "max" in op.name else "avg"
    out = _pool(x, kind, _pairs(op.attributes.get("kernel_size")), _pairs(op.attributes.get("stride", 1)),
                _conv_padding_ttnn(op), _pairs(op.attributes.get("dilation", 1)),
                bool(_attr(op, "ceil_mode", False)), bool(_attr(op, "count_include_pad", True)))
    return _nchw_to_flat_nhwc(out)
