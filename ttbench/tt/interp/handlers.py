"""One handler per TTIR/TTNN op kind, each written from the op's documented semantics: tt-mlir's op definitions
(TTIROps.td / TTNNOps.td descriptions) and ttnn's API documentation and golden functions (`ttnn.get_golden_function`,
whose sources document conv2d's flattened layout and gelu's default). Nothing is copied from them; each docstring
names what it follows. Results are cast to the IR's element type by the engine, which also checks their shape.

One file on purpose (~700 lines, over the house's ~400): it is the registry read as one table, grouped by kind
(element-wise, layout and creation, data movement, reductions, matrix products, convolution and pooling).
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from ...ir.attributes import Opaque, plain
from ..constants import ConstantFault, ConstantUnknown, constant_value, torch_dtype
from .registry import InPlace, InterpreterBug, ProgramFault, Unsupported, handles, op_place

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


def _allocating(op, shape, what: str = "shape") -> tuple:
    """`shape` (from an attribute) checked against the result type before anything of it is allocated: a program
    whose attribute states more elements than its type is refused, never allocated (the interpreter runs in the
    user's kernel)."""
    want = _result_shape(op)
    if math.prod(shape) != math.prod(want):
        raise ProgramFault(f"{op_place(op)} states {what} "
                           f"{'x'.join(map(str, shape)) or 'scalar'} for a result of {op.result_types[0]}")
    return tuple(shape)


def _result_dtype(op, k=0):
    return torch_dtype(op.result_types[k])


# --- unary and binary element-wise ------------------------------------------------------------------------------

def _gelu_erf(x):
    return F.gelu(x.float() if x.dtype == torch.bfloat16 else x).to(x.dtype)


UNARY = {
    "abs": torch.abs, "exp": torch.exp, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt, "tanh": torch.tanh,
    "sigmoid": torch.sigmoid, "relu": torch.relu, "neg": torch.neg, "log": torch.log, "sin": torch.sin,
    "cos": torch.cos, "erf": torch.erf, "reciprocal": torch.reciprocal, "floor": torch.floor, "ceil": torch.ceil,
    "sign": torch.sign, "logical_not": torch.logical_not, "bitwise_not": torch.bitwise_not,
    "relu6": lambda x: torch.clamp(x, 0, 6),
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
# Fused activations (`#ttnn.unary_with_param<op_type = relu>`, conv2d_config's, matmul's "gelu"): the same table,
# and the same readings where the kind leaves a choice (a fused gelu names no approximation either).
ACTIVATIONS = {name: fn for name, fn in UNARY.items() if name not in ("logical_not", "bitwise_not")}
ACTIVATION_READINGS = {"gelu": READINGS["ttnn.gelu"]}


def activation_kind(op, where: str, spec) -> str:
    """The kind of one fused activation as the compiler prints it: `#ttnn.unary_with_param<op_type = relu>` (binary
    ops' lists), `<op_type = relu>` (conv2d_config's activation) or a string (linear's and matmul's `activation`).
    What the interpreter cannot apply refuses, naming where it sits."""
    params = None
    if isinstance(spec, str):
        kind = spec
    elif isinstance(spec, Opaque) and spec.name in ("#ttnn.unary_with_param", ""):
        fields = spec.fields()
        kind = fields.get("op_type")
        kind = kind.name if isinstance(kind, Opaque) else kind
        params = fields.get("params")
    else:
        raise Unsupported(op.op, f"{where} entry {spec!r}")
    if params:
        raise Unsupported(op.op, f"a parameterised fused activation ({where} = {spec})")
    if kind not in ACTIVATIONS:
        raise Unsupported(op.op, f"fused activation {kind!r} in {where}")
    return kind


def _activation_list(op, key) -> list:
    return [activation_kind(op, key, spec) for spec in op.attributes.get(key) or []]


def fused_output_activations(op) -> list:
    """The activations the compiler fused after `op`'s own computation, in order, wherever it put them: a binary
    op's `activations`, conv2d_config's `activation`, linear's and matmul's `activation` string."""
    if op.attributes.get("activations"):
        return _activation_list(op, "activations")
    config = op.attributes.get("conv2d_config")
    if isinstance(config, Opaque):
        spec = config.fields().get("activation")
        if spec is not None and spec != "":
            return [activation_kind(op, "conv2d_config.activation", spec)]
    spec = op.attributes.get("activation")
    if spec is not None and spec != "":
        return [activation_kind(op, "activation", spec)]
    return []


def _apply_activations(op, key, x):
    for kind in _activation_list(op, key):
        x = ACTIVATIONS[kind](x)
    return x


def _activated(ctx, op, value, kinds):
    """`value` through the fused output activations `kinds`; the value before them is kept for comparisons (what
    the op's own source line computes; the activation may be another line's, and a dropped or changed activation
    then shows at this op)."""
    if not kinds:
        return value
    if ctx.record:
        ctx.before_activation[op.op.index] = (value, tuple(kinds))
    for kind in kinds:
        value = ACTIVATIONS[kind](value)
    return value


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
    "atan2": torch.atan2, "bitwise_and": torch.bitwise_and, "bitwise_or": torch.bitwise_or,
    "bitwise_xor": torch.bitwise_xor, "logical_left_shift": torch.bitwise_left_shift,
    "logical_right_shift": torch.bitwise_right_shift,
}


def _binary(fn):
    def run(ctx, op, args):
        a = _apply_activations(op, "input_tensor_a_activations", args[0])
        b = _apply_activations(op, "input_tensor_b_activations", args[1])
        return _activated(ctx, op, fn(a, b), fused_output_activations(op))

    def prepare(op):
        """Without fused activations (most ops) the op is the bare function: no attribute read per run."""
        if any(op.attributes.get(key) for key in _ACTIVATION_ATTRS):
            for key in _ACTIVATION_ATTRS:  # an unknown activation refuses before anything runs
                _activation_list(op, key)
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
    key = (op.callee, tuple(id(a) for a in args), ctx.exact_depth > 0)  # healed (drift) or not: not one value
    if key not in ctx.const_eval_cache:
        ctx.const_eval_cache[key] = ctx.call(fn, args)
    return ctx.const_eval_cache[key]


# --- creation ------------------------------------------------------------------------------------------------

@handles("ttnn.full", attributes=("fill_value", "shape"), reference="ttnn.full(shape, fill_value)")
def _full(ctx, op, args):
    return torch.full(_allocating(op, _shape_attr(op, "shape")), _attr(op, "fill_value"), dtype=torch.float64)


@handles("ttnn.ones", "ttnn.zeros", attributes=("shape",), reference="ttnn.ones / ttnn.zeros(shape)")
def _ones_zeros(ctx, op, args):
    fill = 1 if op.name.endswith("ones") else 0
    return torch.full(_allocating(op, _shape_attr(op, "shape")), fill, dtype=_result_dtype(op))


@handles("ttir.arange", "ttnn.arange", attributes=("start", "end", "step", "arange_dimension"),
         reference="arange(start, end, step) along arange_dimension (TTIR), broadcast to the result shape")
def _arange(ctx, op, args):
    start, end, step = _attr(op, "start"), _attr(op, "end"), _attr(op, "step")
    shape = _result_shape(op)
    dim = _attr(op, "arange_dimension", 0 if len(shape) == 1 else None)
    if dim is None:
        raise Unsupported(op.op, "an arange of rank > 1 without arange_dimension")
    if not step or max(0, math.ceil((end - start) / step)) != shape[dim]:
        raise ProgramFault(f"{op_place(op)} states arange({start}, {end}, "
                           f"{step}) for a result of {op.result_types[0]}")
    values = torch.arange(start, end, step, dtype=torch.float64)
    view = [1] * len(shape)
    view[dim] = values.numel()
    return values.reshape(view).expand(shape).clone()


@handles("ttir.constant", "ttnn.constant", attributes=("value",), reference="a tensor constant")
def _constant(ctx, op, args):
    try:
        return constant_value(ctx.program, op)
    except ConstantUnknown as exc:
        raise Unsupported(op.op, str(exc)) from exc
    except ConstantFault as exc:
        raise ProgramFault(f"{op_place(op)} {exc}") from exc


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
    factors = _attr(op, "broadcast_dimensions")
    return _tiled(args[0], factors, _allocating(op, _times(args[0].shape, factors), "a repeat to"))


@handles("ttnn.repeat", attributes=("repeat_dims",), reference="ttnn.repeat(x, repeat_dims)")
def _repeat(ctx, op, args):
    factors = _shape_attr(op, "repeat_dims")
    return _tiled(args[0], factors, _allocating(op, _times(args[0].shape, factors), "a repeat to"))


def _tiled(x, factors, shape: tuple):
    """`x.repeat(factors)` (of `shape`): a view where only dimensions of size 1 are repeated (a broadcast, most
    of them), a copy otherwise. No handler writes into its inputs, so the view is safe, and it saves copying a
    tensor the next op reads once (tens of MB in a vision model's TTIR)."""
    padded = (1,) * (len(shape) - x.dim()) + tuple(x.shape)
    if all(int(f) == 1 or d == 1 for d, f in zip(padded, factors)):
        return x.reshape(padded).expand(shape)
    return x.repeat(factors)


def _times(shape, factors) -> tuple:
    """The shape `x.repeat(factors)` makes (leading factors add dimensions)."""
    return tuple(int(d) * int(f) for d, f in zip((1,) * max(0, len(factors) - len(shape)) + tuple(shape), factors))


@handles("ttnn.repeat_interleave", "ttir.repeat_interleave", attributes=("repeats", "dim"),
         reference="ttnn.repeat_interleave(x, repeats, dim): each slice along dim repeated `repeats` times in place")
def _repeat_interleave(ctx, op, args):
    shape = list(args[0].shape)
    if shape:
        shape[_attr(op, "dim")] *= int(_attr(op, "repeats"))
    _allocating(op, shape, "a repeat to")
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
    _allocating(op, [x.shape[d] + pairs[2 * d] + pairs[2 * d + 1] for d in range(x.dim())], "a padding to")
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
    flat = _row_indices(op, indices, sizes)
    rows = math.prod(sizes)
    if _attr(op, "column"):
        # the trailing dimensions hold the grid of `sizes` (xlnet's relative shift: [60, 1, 9] by sizes [9])
        if not _trailing_grid(data.shape, rows):
            raise Unsupported(op.op, f"rows_gather column=true of {tuple(data.shape)} with sizes {sizes}")
        gathered = data.reshape(-1, rows)[:, flat]
    else:
        if data.numel() % rows:
            raise Unsupported(op.op, f"rows_gather of {tuple(data.shape)} rows by sizes {sizes}")
        gathered = data.reshape(rows, -1)[flat]
    return gathered.reshape(_result_shape(op))


def _trailing_grid(shape, rows: int) -> bool:
    """Whether some trailing dimensions of `shape` multiply to exactly `rows`."""
    product = 1
    for d in reversed(shape):
        product *= d
        if product == rows:
            return True
        if product > rows:
            return False
    return rows == 1


def _row_indices(op, indices, sizes) -> torch.Tensor:
    """tt-mlir's gather/scatter indices [1, K, N]: the K components of N positions on a row-major grid of `sizes`,
    as N flat positions. An index outside the grid stops the run (no value is guessed for it)."""
    if indices.dim() != 3 or indices.shape[0] != 1 or indices.shape[1] != len(sizes):
        raise Unsupported(op.op, f"{op.name.split('.')[-1]} indices of shape {tuple(indices.shape)} for sizes "
                                 f"{sizes}")
    components = indices[0].to(torch.int64)  # [K, N]
    flat = torch.zeros(components.shape[1], dtype=torch.int64)
    for k, size in enumerate(sizes):
        c = components[k]
        if bool(((c < 0) | (c >= size)).any()):
            raise ProgramFault(f"{op_place(op)} reads out of bounds: an index "
                               f"component {k} lies outside 0..{size - 1} and fill_out_of_bounds is false")
        flat = flat * size + c
    return flat


_SCATTER_REDUCE = {"sum": "sum", "prod": "prod", "max": "amax", "min": "amin"}


@handles("ttir.rows_scatter", "ttnn.rows_scatter", attributes=("column", "reduce", "sizes", "windows"),
         reference="tt-mlir's scatter, the inverse of rows_gather: input viewed as [prod(sizes), rest] rows, "
                   "updates as [N, rest]; row i of the updates goes to the row its K index components address "
                   "(column=true: single elements of the trailing grid, over every leading row); reduce "
                   "sum/prod/max/min combines it with what is there, reduce `invalid` (none) replaces it")
def _rows_scatter(ctx, op, args):
    data, indices, updates = args
    sizes = _attr(op, "sizes")
    if any(w != 1 for w in _attr(op, "windows")):
        raise Unsupported(op.op, f"rows_scatter windows = {_attr(op, 'windows')}")
    reduce = op.attributes.get("reduce")
    reduce = reduce.body if isinstance(reduce, Opaque) else str(reduce)
    if reduce not in _SCATTER_REDUCE and reduce != "invalid":
        raise Unsupported(op.op, f"rows_scatter reduce = {reduce}")
    rows = math.prod(sizes)
    flat = _row_indices(op, indices, sizes)
    column = bool(_attr(op, "column"))
    # column=true: the trailing dimensions hold the grid and single elements are written, over every leading row
    # (groupvit's hard softmax: [1, 6, 5] by sizes [2, 3, 5]); column=false: whole rows of the grid are written
    if column and not _trailing_grid(data.shape, rows) or not column and data.numel() % rows:
        raise Unsupported(op.op, f"rows_scatter{' column=true' if column else ''} into {tuple(data.shape)} by "
                                 f"sizes {sizes}")
    target = (data.reshape(-1, rows) if column else data.reshape(rows, -1)).clone()
    axis = 1 if column else 0
    if updates.numel() != flat.numel() * target.shape[1 - axis]:
        raise Unsupported(op.op, f"rows_scatter of {tuple(updates.shape)} into {tuple(data.shape)} by sizes "
                                 f"{sizes}")
    source = updates.reshape((target.shape[0], flat.numel()) if column else (flat.numel(), -1)).to(target.dtype)
    if reduce == "invalid":
        if flat.unique().numel() != flat.numel():
            raise Unsupported(op.op, why="two updates write the same row with no reduction: which one lands is "
                                         "not defined, so no value is computed")
        target.index_copy_(axis, flat, source)
    elif reduce == "sum":
        target.index_add_(axis, flat, source)
    else:
        target.index_reduce_(axis, flat, source, _SCATTER_REDUCE[reduce])
    return target.reshape(data.shape)


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


def _arg_reduce(fn):
    def run(ctx, op, args):
        x = args[0]
        dims = _attr(op, "dim_arg", None) if op.name.startswith("ttir.") else _attr(op, "dim", None)
        if isinstance(dims, list):
            if len(dims) != 1:
                raise Unsupported(op.op, f"{op.name.split('.')[-1]} over {len(dims)} dimensions")
            dims = dims[0]
        keep = bool(_attr(op, "keep_dim", False))
        if dims is None:
            return fn(x.reshape(-1), 0).reshape([1] * x.dim() if keep else [])
        return fn(x, dims % x.dim(), keep)
    return run


# torch returns the first of equal extremes, as ttnn's argmax documents
for _name, _fn in {"argmax": lambda x, d, k=False: torch.argmax(x, d, k),
                   "argmin": lambda x, d, k=False: torch.argmin(x, d, k)}.items():
    handles(f"ttir.{_name}", f"ttnn.{_name}", attributes=("dim_arg", "dim", "keep_dim", "use_multicore"),
            reference=f"{_name} along dim (TTIR: dim_arg), the first index of equal values; keep_dim keeps it as "
                      f"size 1; over every element when no dimension is given")(_arg_reduce(_fn))


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
        raise ProgramFault(f"update_cache #{op.op.index} at {op.op.location or '?'} writes out of bounds: position "
                           f"{position} of a cache of {cache.shape[2]}")
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
            raise ProgramFault(f"paged_update_cache #{op.op.index} at {op.op.location or '?'} writes out of bounds: "
                               f"position {position} of a cache of {cache.shape[2]}")
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


@handles("ttnn.matmul", "ttir.matmul", attributes=("transpose_a", "transpose_b", "activation"),
         reference="ttnn.matmul(a, b, transpose_a, transpose_b, activation): batched matmul with broadcast batch "
                   "dimensions, each operand's last two dimensions transposed first when asked, the fused "
                   "activation (ttnn's string form: \"gelu\" is the exact form) applied to the product")
def _matmul(ctx, op, args):
    a, b = _matmul_operands(op, args[0], args[1])
    return _activated(ctx, op, torch.matmul(a, b), fused_output_activations(op))


@handles("ttnn.linear", "ttir.linear", attributes=("transpose_a", "transpose_b", "activation"),
         reference="ttnn.linear(a, b, bias, transpose_a, transpose_b, activation): matmul plus bias broadcast "
                   "over the last dimension, then the fused activation")
def _linear(ctx, op, args):
    a, b = _matmul_operands(op, args[0], args[1])
    out = torch.matmul(a, b)
    if len(args) > 2 and isinstance(args[2], torch.Tensor):
        out = out + args[2]
    return _activated(ctx, op, out, fused_output_activations(op))


def _check_activations(handler):
    """prepare: an activation the interpreter cannot apply refuses before anything runs."""
    def prepare(op):
        fused_output_activations(op)
        return handler
    handler.prepare = prepare


for _handler in (_matmul, _linear):
    _check_activations(_handler)


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


_WEIGHT_DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}


def _conv_weights(op, weight):
    """The weights as the kernel reads them: rounded to conv2d_config's `weights_dtype` (bf16 weights of an f32
    conv lose their low bits before any product)."""
    config = op.attributes.get("conv2d_config")
    spec = config.fields().get("weights_dtype") if isinstance(config, Opaque) else None
    if spec is None:
        return weight
    name = spec.name if isinstance(spec, Opaque) else str(spec)
    if name not in _WEIGHT_DTYPES:
        raise Unsupported(op.op, f"conv2d_config weights_dtype = {name} (block-float weights)")
    return weight.to(_WEIGHT_DTYPES[name]).to(weight.dtype)


_CONV2D_CONFIG_FIELDS = ("conv2d_config.activation", "conv2d_config.weights_dtype")


@handles("ttnn.conv2d", "ttnn.conv_transpose2d",
         attributes=("batch_size", "input_height", "input_width", "in_channels", "out_channels", "kernel_size",
                     "stride", "padding", "dilation", "groups", "output_padding") + _CONV2D_CONFIG_FIELDS,
         reference="ttnn.conv2d: input flattened NHWC [1, 1, N*H*W, C] with batch_size/input_height/input_width, "
                   "weight [O, I/groups, kH, kW] (rounded to conv2d_config's weights_dtype), bias [1, 1, 1, O], "
                   "output [1, 1, N*OH*OW, O] through conv2d_config's fused activation; padding "
                   "(top, bottom, left, right) or (height, width)")
def _ttnn_conv(ctx, op, args):
    x = _flat_nhwc_to_nchw(op, args[0], _attr(op, "in_channels"))
    bias = args[2] if len(args) > 2 and isinstance(args[2], torch.Tensor) else None
    transposed = op.name.endswith("transpose2d")
    weight = args[1]
    if transposed:
        _check_transposed_padding_order(op, x)
    else:
        weight = _unprepared_conv2d_weights(op, weight)
    out = _conv(x, _conv_weights(op, weight), bias, _pairs(op.attributes.get("stride", 1)), _conv_padding_ttnn(op),
                _pairs(op.attributes.get("dilation", 1)), _attr(op, "groups", 1), transposed,
                _pairs(op.attributes.get("output_padding", 0)))
    return _activated(ctx, op, _nchw_to_flat_nhwc(out), fused_output_activations(op))


def _prepared_conv2d_shape(op, out_channels, in_channels):
    kh, kw = _pairs(op.attributes.get("kernel_size"))
    return (1, 1, kh * kw * in_channels, out_channels)


def _unprepared_conv2d_weights(op, weight):
    """ttnn.conv2d's weights as given ([O, I/groups, kH, kW]) or as prepare_conv2d_weights laid them out
    ([1, 1, kH*kW*I, O]): the latter read back to [O, I, kH, kW]. The two shapes coincide only where the two
    layouts hold the same values (O = I = kW = 1), so the shape alone decides."""
    o, i = _attr(op, "out_channels"), _attr(op, "in_channels")
    kh, kw = _pairs(op.attributes.get("kernel_size"))
    prepared = _prepared_conv2d_shape(op, o, i)
    if tuple(weight.shape) != prepared or tuple(weight.shape) == (o, i // _attr(op, "groups", 1), kh, kw):
        return weight
    if _attr(op, "groups", 1) != 1:
        raise Unsupported(op.op, "prepared weights of a grouped convolution (groups > 1)")
    return weight.reshape(kh, kw, i, o).permute(3, 2, 0, 1)


# What prepare_conv2d_weights/_bias read only to choose the kernel's blocking for the conv's input: the logical
# matrix is the same, and a blocking that pads it shows in the result type, which the handler checks.
_CONV_PREPARATION_GEOMETRY = ("batch_size", "input_height", "input_width", "padding", "stride", "dilation",
                              "input_dtype", "input_memory_config", "input_tensor_layout", "in_channels",
                              "out_channels", "kernel_size", "groups")
# conv2d_config's activation applies to the conv's output, which preparation does not compute
_PREPARATION_CONFIG_FIELDS = ("conv2d_config.weights_dtype", "conv2d_config.activation")


@handles("ttnn.prepare_conv2d_weights",
         attributes=_CONV_PREPARATION_GEOMETRY + _PREPARATION_CONFIG_FIELDS + ("weights_format", "has_bias"),
         reference="ttnn's conv2d weight preparation (prepare_conv2d_weights.cpp, to_weight_interleaved_mm_layout): "
                   "[O, I, kH, kW] (weights_format OIHW) permuted to [kH, kW, I, O], flattened to "
                   "[1, 1, kH*kW*I, O] and rounded to conv2d_config's weights_dtype; a result type padded or "
                   "blocked otherwise, or groups > 1, is refused")
def _prepare_conv2d_weights(ctx, op, args):
    weight = args[0]
    if weight.dim() != 4:
        raise InterpreterBug(f"{op.name} #{op.op.index}: weights {tuple(weight.shape)} are not [O, I, kH, kW]")
    o, i, kh, kw = weight.shape
    prepared = _prepared_conv2d_shape(op, o, i)
    if tuple(_result_shape(op)) != prepared:
        raise Unsupported(op.op, why=f"its result {tuple(_result_shape(op))} is not the plain layout "
                                     f"[1, 1, kH*kW*I, O] = {prepared} of weights {tuple(weight.shape)}")
    return _conv_weights(op, weight).permute(2, 3, 1, 0).reshape(prepared)


def _prepare_conv2d_weights_plan(op):
    weights_format = _attr(op, "weights_format", "OIHW")
    if weights_format != "OIHW":
        raise Unsupported(op.op, f"prepare_conv2d_weights weights_format = {weights_format!r}")
    if _attr(op, "groups", 1) != 1:
        raise Unsupported(op.op, "prepared weights of a grouped convolution (groups > 1)")
    _conv_weights(op, torch.zeros(1))
    return _prepare_conv2d_weights


_prepare_conv2d_weights.prepare = _prepare_conv2d_weights_plan


@handles("ttnn.prepare_conv2d_bias", attributes=_CONV_PREPARATION_GEOMETRY + _PREPARATION_CONFIG_FIELDS,
         reference="ttnn's conv2d bias preparation: [1, 1, 1, O] kept as it is, rounded to conv2d_config's "
                   "weights_dtype; a result type padded otherwise is refused")
def _prepare_conv2d_bias(ctx, op, args):
    bias, o = args[0], _attr(op, "out_channels")
    if bias.numel() != o or tuple(_result_shape(op)) != (1, 1, 1, o):
        raise Unsupported(op.op, why=f"bias {tuple(bias.shape)} prepared as {tuple(_result_shape(op))} is not "
                                     f"[1, 1, 1, {o}]")
    return _conv_weights(op, bias).reshape(1, 1, 1, o)


_prepare_conv2d_bias.prepare = lambda op: (_conv_weights(op, torch.zeros(1)), _prepare_conv2d_bias)[1]


def _prepare_conv(op):
    fused_output_activations(op)  # an activation or weight type it cannot apply refuses before anything runs
    _conv_weights(op, torch.zeros(1))
    return _ttnn_conv


_ttnn_conv.prepare = _prepare_conv


@handles("ttir.conv1d", attributes=("batch_dim", "channel_dim", "length_dim", "dilation", "groups", "padding",
                                    "stride"),
         reference="TTIR conv1d: input dims named by batch/channel/length_dim, weight [O, I/groups, K], padding "
                   "(left, right)")
def _ttir_conv1d(ctx, op, args):
    dims = [_attr(op, "batch_dim", 0), _attr(op, "channel_dim", 1), _attr(op, "length_dim", 2)]
    x = args[0].permute(dims)
    bias = args[2] if len(args) > 2 else None
    out = _conv1d(op, x, args[1], bias)
    return out.permute([dims.index(i) for i in range(3)])


def _conv1d(op, x, weight, bias):
    left, right = _pairs(op.attributes.get("padding", 0), 2)
    compute = torch.float32 if x.dtype == torch.bfloat16 else x.dtype
    x = F.pad(x.to(compute), (left, right))
    b = bias.reshape(-1).to(compute) if isinstance(bias, torch.Tensor) else None
    return F.conv1d(x, weight.to(compute), b, stride=_attr(op, "stride", 1), dilation=_attr(op, "dilation", 1),
                    groups=_attr(op, "groups", 1))


@handles("ttnn.conv1d",
         attributes=("batch_size", "input_length", "in_channels", "out_channels", "kernel_size", "stride", "padding",
                     "dilation", "groups") + _CONV2D_CONFIG_FIELDS,
         reference="ttnn.conv1d: input [N, L, C] (batch_size, input_length, in_channels), weight [O, I/groups, K] "
                   "(rounded to conv2d_config's weights_dtype), bias [1, 1, 1, O], output flattened [1, 1, N*OL, O] "
                   "through conv2d_config's fused activation; padding (left, right)")
def _ttnn_conv1d(ctx, op, args):
    n, length, c = _attr(op, "batch_size"), _attr(op, "input_length"), _attr(op, "in_channels")
    if args[0].numel() != n * length * c:
        raise InterpreterBug(f"{op.name} #{op.op.index}: input of {args[0].numel()} elements is not {n}x{length}x{c}")
    x = args[0].reshape(n, length, c).permute(0, 2, 1)
    bias = args[2] if len(args) > 2 and isinstance(args[2], torch.Tensor) else None
    out = _conv1d(op, x, _conv_weights(op, args[1]), bias)  # [N, O, OL]
    flat = out.permute(0, 2, 1).reshape(1, 1, -1, out.shape[1])
    return _activated(ctx, op, flat.reshape(_result_shape(op)), fused_output_activations(op))


_ttnn_conv1d.prepare = lambda op: (_prepare_conv(op), _ttnn_conv1d)[1]


def _conv3d(op, x, weight, bias, groups):
    if _attr(op, "padding_mode", "zeros") != "zeros":
        raise Unsupported(op.op, f"conv3d padding_mode = {_attr(op, 'padding_mode')!r}")
    compute = torch.float32 if x.dtype == torch.bfloat16 else x.dtype
    b = bias.reshape(-1).to(compute) if isinstance(bias, torch.Tensor) else None
    return F.conv3d(x.to(compute), weight.to(compute), b, stride=_pairs(op.attributes.get("stride", 1), 3),
                    padding=_pairs(op.attributes.get("padding", 0), 3),
                    dilation=_pairs(op.attributes.get("dilation", 1), 3), groups=groups)


@handles("ttir.conv3d", attributes=("batch_dim", "channel_dim", "depth_dim", "height_dim", "width_dim", "dilation",
                                    "groups", "padding", "padding_mode", "stride"),
         reference="TTIR conv3d: input dims named by batch/channel/depth/height/width_dim, weight "
                   "[O, I/groups, kD, kH, kW], symmetric padding (depth, height, width), zero padding mode")
def _ttir_conv3d(ctx, op, args):
    dims = [_attr(op, k) for k in ("batch_dim", "channel_dim", "depth_dim", "height_dim", "width_dim")]
    out = _conv3d(op, args[0].permute(dims), args[1], args[2] if len(args) > 2 else None, _attr(op, "groups", 1))
    return out.permute([dims.index(i) for i in range(5)])


@handles("ttnn.prepare_conv3d_weights", attributes=("alignment", "c_in_block", "groups"),
         reference="ttnn's conv3d weight preparation: [O, I/groups, kD, kH, kW] made block-diagonal over groups "
                   "([O, I, ...]), permuted to [kD, kH, kW, I, O], I zero-padded to a multiple of `alignment`, "
                   "split into blocks of c_in_block channels and laid out [blocks, kD, kH, kW, c_in_block, O], "
                   "then flattened to [rows, O]")
def _prepare_conv3d_weights(ctx, op, args):
    w = args[0]
    groups = _attr(op, "groups", 1)
    o, i_per_group = w.shape[0], w.shape[1]
    if groups > 1:
        full = w.new_zeros((o, i_per_group * groups) + tuple(w.shape[2:]))
        per_group = o // groups
        for g in range(groups):
            full[g * per_group:(g + 1) * per_group, g * i_per_group:(g + 1) * i_per_group] = \
                w[g * per_group:(g + 1) * per_group]
        w = full
    w = w.permute(2, 3, 4, 1, 0)  # kD, kH, kW, I, O
    alignment = _attr(op, "alignment", 16)
    if w.shape[3] % alignment:
        w = F.pad(w, (0, 0, 0, alignment - w.shape[3] % alignment))
    kd, kh, kw, c_aligned, _ = w.shape
    block = _attr(op, "c_in_block", 0) or c_aligned
    if c_aligned % block:
        raise Unsupported(op.op, why=f"c_in_block {block} does not divide the {c_aligned} aligned input channels")
    w = w.reshape(kd, kh, kw, c_aligned // block, block, o).permute(3, 0, 1, 2, 4, 5)
    return w.reshape(-1, o)


@handles("ttnn.conv3d",
         attributes=("batch_size", "input_depth", "input_height", "input_width", "in_channels", "out_channels",
                     "kernel_size", "stride", "padding", "padding_mode", "dilation", "groups",
                     "conv3d_config.c_in_block"),
         reference="ttnn.conv3d: input [N, D, H, W, C] with C padded to in_channels, weights as "
                   "prepare_conv3d_weights lays them out ([blocks * kD * kH * kW * c_in_block, O], c_in_block from "
                   "conv3d_config, groups already made block-diagonal), bias [1, O], output [N, OD, OH, OW, O]")
def _ttnn_conv3d(ctx, op, args):
    x = args[0]
    c = _attr(op, "in_channels")
    if x.dim() != 5 or x.shape[4] != c:
        raise InterpreterBug(f"{op.name} #{op.op.index}: input {tuple(x.shape)} is not [N, D, H, W, {c}]")
    kd, kh, kw = _pairs(op.attributes.get("kernel_size"), 3)
    config = op.attributes.get("conv3d_config")
    block = plain((config.fields() if isinstance(config, Opaque) else {}).get("c_in_block", 0)) or c
    weight, o = args[1], _attr(op, "out_channels")
    if c % block or weight.shape != (c // block * kd * kh * kw * block, o):
        raise Unsupported(op.op, why=f"its weights {tuple(weight.shape)} are not prepared for {c} input channels "
                                     f"in blocks of {block} and a {kd}x{kh}x{kw} kernel")
    weight = weight.reshape(c // block, kd, kh, kw, block, o).permute(5, 0, 4, 1, 2, 3).reshape(o, c, kd, kh, kw)
    bias = args[2] if len(args) > 2 and isinstance(args[2], torch.Tensor) else None
    # groups 1: the prepared weights already hold every group's block
    out = _conv3d(op, x.permute(0, 4, 1, 2, 3), weight, bias, groups=1)
    return out.permute(0, 2, 3, 4, 1)


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


def _pool(x, kind, kernel, stride, tblr, dilation, ceil_mode, count_include_pad=True, divisor_override=None):
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
    return F.avg_pool2d(x, kernel, stride, (top, left), ceil_mode=ceil_mode, count_include_pad=count_include_pad,
                        divisor_override=divisor_override)


@handles("ttir.max_pool2d", "ttir.avg_pool2d",
         attributes=("kernel", "stride", "padding", "dilation", "ceil_mode", "count_include_pad", "divisor_override"),
         reference="TTIR pooling on NHWC input; padding [top, left, bottom, right]; an average pool's window sum "
                   "is divided by divisor_override when given (1: the sum), else by the window (count_include_pad)")
def _ttir_pool(ctx, op, args):
    x = args[0].permute(0, 3, 1, 2)
    kind = "max" if "max" in op.name else "avg"
    out = _pool(x, kind, _pairs(op.attributes.get("kernel")), _pairs(op.attributes.get("stride", 1)),
                _conv_padding_ttir(op), _pairs(op.attributes.get("dilation", 1)),
                bool(_attr(op, "ceil_mode", False)), bool(_attr(op, "count_include_pad", True)),
                _attr(op, "divisor_override"))
    return out.permute(0, 2, 3, 1)


@handles("ttnn.max_pool2d", "ttnn.avg_pool2d",
         attributes=("batch_size", "input_height", "input_width", "channels", "kernel_size", "stride", "padding",
                     "dilation", "ceil_mode", "count_include_pad", "in_place_halo", "divisor_override"),
         reference="ttnn.max_pool2d / avg_pool2d on flattened NHWC [1, 1, N*H*W, C] (batch_size, input_height, "
                   "input_width, channels); padding (height, width) or (top, bottom, left, right); an average "
                   "pool's window sum divided by divisor_override when given (1: the sum)")
def _ttnn_pool(ctx, op, args):
    x = _flat_nhwc_to_nchw(op, args[0], _attr(op, "channels"))
    kind = "max" if "max" in op.name else "avg"
    out = _pool(x, kind, _pairs(op.attributes.get("kernel_size")), _pairs(op.attributes.get("stride", 1)),
                _conv_padding_ttnn(op), _pairs(op.attributes.get("dilation", 1)),
                bool(_attr(op, "ceil_mode", False)), bool(_attr(op, "count_include_pad", True)),
                _attr(op, "divisor_override"))
    return _nchw_to_flat_nhwc(out)
