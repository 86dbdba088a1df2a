"""Which ops are tensor constants and which carry no source line of their own, in every stage's op names."""
from __future__ import annotations

import re

# Ops whose result is a tensor literal embedded in the IR.
TENSOR_CONSTANT_OPS = frozenset({
    "torch.vtensor.literal", "torch.tensor.literal", "onnx.Constant", "stablehlo.constant", "mhlo.constant",
    "arith.constant", "tosa.const", "ttir.constant", "ttnn.constant",
})

# Ops that hold a scalar, build an argument list, fill a tensor with one value, or move and re-lay a tensor for
# the device: compiler scaffolding, not computation from a source line. The Tenstorrent compiler gives the
# transfers it adds for arguments the location of the enclosing function, whatever that is (the first op's line
# through torch.export, the graph's name through ONNX), so counting them made coverage differ by frontend
# (ONNX 71-85 %, export 94-99.8 %) for no difference in what points at the source.
_SCAFFOLDING_RE = re.compile(r"^(torch\.constant\.|torch\.prim\.ListConstruct$|torch\.prim\.TupleConstruct$"
                             r"|ttnn\.get_device$|ttnn\.deallocate$|ttcore\.load_cached$|onnx\.Constant$"
                             r"|ttnn\.(to_device|from_device|to_layout|to_memory_config)$"
                             r"|ttnn\.(full|ones|zeros|empty)$)")


# Ops that only move, re-lay, free or look up what other ops compute: TTNN's device handles, transfers, layout and
# memory changes, frees and cached constant loads, torch's argument lists. Hidden by default in every view and left
# out of per-module and per-line counts (mobilenet's first conv "had 1,244 TTNN ops", against 34 in TTIR).
_BOOKKEEPING_RE = re.compile(r"^(ttnn\.(get_device|deallocate|to_device|from_device|to_layout|to_memory_config)"
                             r"|ttcore\.load_cached|torch\.prim\.(ListConstruct|TupleConstruct))$")
BOOKKEEPING_OPS = ("ttnn.get_device, ttnn.deallocate, ttnn.to_device/from_device/to_layout/to_memory_config, "
                   "ttcore.load_cached, torch.prim.ListConstruct/TupleConstruct")


# Ops that only move or retype values. Lowering adds many that the earlier stage has no op for (a broadcast of a
# bias). All but the retyping ones give back their operands' elements unchanged.
MOVEMENT_SUFFIXES = (".reshape", ".broadcast", ".permute", ".repeat", ".typecast", ".slice_static", ".concat",
                     ".transpose", ".broadcast_in_dim", ".convert", ".view.default", ".t.default",
                     ".expand.default", ".clone.default", ".squeeze", ".unsqueeze")
_RETYPING_SUFFIXES = (".typecast", ".convert")


def moves_only(name: str) -> bool:
    """Whether an op of this name gives back its operands' elements unchanged (moved, not retyped or computed)."""
    return name.endswith(MOVEMENT_SUFFIXES) and not name.endswith(_RETYPING_SUFFIXES)


def is_bookkeeping(name: str) -> bool:
    """Whether an op of this name only moves, re-lays, frees or looks up values (see _BOOKKEEPING_RE)."""
    return bool(_BOOKKEEPING_RE.match(name))


def is_constant_op(name: str) -> bool:
    return name in TENSOR_CONSTANT_OPS


# Scaffolding that still states a value (a fill, a scalar): a change of it changes what the program computes.
_VALUE_SCAFFOLDING_RE = re.compile(r"^(torch\.constant\.|ttnn\.(full|ones|zeros)$)")


def states_a_value(name: str) -> bool:
    """Whether an op of this name states values of the program (computation, a literal, a fill, a scalar): what a
    diff of two programs must compare, whether or not it points at a source line."""
    return needs_location(name) or is_constant_op(name) or bool(_VALUE_SCAFFOLDING_RE.match(name))


def needs_location(name: str) -> bool:
    """Whether an op of this name should point at a source line (what location coverage counts)."""
    return not (is_constant_op(name) or _SCAFFOLDING_RE.match(name))


NOT_COUNTED_FOR_COVERAGE = ("tensor constants (" + ", ".join(sorted(TENSOR_CONSTANT_OPS)) + "), torch.constant.*, "
                            "torch.prim.ListConstruct/TupleConstruct, ttnn.get_device, ttnn.deallocate, "
                            "ttcore.load_cached, ttnn.to_device/from_device/to_layout/to_memory_config, "
                            "ttnn.full/ones/zeros/empty")


# Op kinds that compute the same thing under each stage's names (aten, StableHLO, TTIR, TTNN). An op is compared
# only with ops of its own kind (or, for a TTNN op with fused activations, of those activations' kinds): an
# intermediate of a rewrite (an erf polynomial standing for one gelu) has no counterpart and is listed unmatched.
KIND_CLASSES = (
    {"mm", "bmm", "matmul", "addmm", "linear", "dot_general", "dot", "baddbmm"},
    {"convolution", "conv2d", "conv_transpose2d", "_convolution", "conv1d"},
    {"add", "add_"}, {"mul", "multiply", "mul_"}, {"sub", "subtract", "rsub"}, {"div", "divide"},
    {"relu", "relu_", "maximum", "clamp_min", "relu6", "hardtanh"}, {"minimum", "clamp_max"},
    {"clamp", "clamp_scalar", "clamp_tensor", "hardtanh"},
    {"max_pool2d", "max_pool2d_with_indices", "reduce_window"}, {"avg_pool2d", "reduce_window"},
    {"sum", "reduce", "mean"}, {"amax", "max", "reduce"}, {"amin", "min", "reduce"},
    {"softmax", "_softmax"}, {"sigmoid", "logistic"}, {"neg", "negate"}, {"pow", "pow_scalar", "power"},
    {"where", "select"}, {"embedding", "gather", "rows_gather", "index_select", "take"},
    {"eq", "compare"}, {"ne", "compare"}, {"ge", "compare"}, {"gt", "compare"}, {"le", "compare"},
    {"lt", "compare"}, {"cumsum", "reduce_window"}, {"exp", "exponential"}, {"log"}, {"tanh"}, {"gelu"},
    {"rsqrt"}, {"sqrt"}, {"erf"}, {"abs"}, {"pad"}, {"reverse", "flip"},
)
# The op an earlier stage may end an activation with when it computes it as several (relu6: a maximum, then a
# minimum).
COMPOSED_ACTIVATIONS = {"relu6": {"minimum", "clamp_max", "clamp", "clamp_scalar"}}


def kinds_of(name: str) -> set:
    """A kind name with the names the other stages give the same computation."""
    out = {name}
    for cls in KIND_CLASSES:
        if name in cls:
            out |= cls
    return out


def op_kind(name: str) -> str:
    """What an op computes, without its dialect, overload or in-place mark: `aten.relu_.default`, `Tensor.relu_`,
    `torch.aten.relu_`, `ttir.relu` -> `relu`; `stablehlo.maximum` -> `maximum` (see kinds_of for its aliases)."""
    parts = name.split(".")
    if len(parts) > 2 and parts[:2] == ["torch", "aten"]:
        base = parts[2]
    elif len(parts) > 1 and parts[0] in ("aten", "Tensor", "prims"):
        base = parts[1]
    else:
        base = parts[-1]
    return base.lower().rstrip("_") or base.lower()
