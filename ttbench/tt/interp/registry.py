"""The interpreter's registry: one handler per op kind (`handles`), the attributes each honours, and the ways a run
refuses (`Unsupported`) or fails on ttbench's side (`InterpreterBug`). handlers.py fills it; engine.py plans and
runs with it; the element types values are computed in are tt/constants.py's."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from ...core import Op
from ...ir.attributes import AttributeSyntaxError, Opaque
from ..program import ProgramOp

# Attributes that steer only where and how the device computes, each with why it leaves the values alone. Every
# other attribute is honoured by the op's handler (`Handler.attributes`) or refuses the run.
DEVICE_ONLY_ATTRIBUTES = {
    "memory_config": "where the result lives (DRAM or L1, interleaved or sharded): placement, not values",
    "matmul_program_config": "how a matmul is split over cores and blocks: the same sums, scheduled differently",
    "use_multicore": "how many cores run the op: scheduling",
    "config_tensors_in_dram": "where the kernel's own configuration tensors live: placement",
    "reallocate_halo_output": "whether the halo buffer is moved after use: memory management",
    "in_place_halo": "whether the halo is built in place: memory management",
    "deallocate_activation": "whether the input buffer is freed after the op: memory management",
    "conservative_folding": "a hint to the compiler's constant folding, already applied when the text was written",
    "force": "ttnn.deallocate's force flag: memory management",
    "conv2d_slice_config": "whether a conv is cut into slices along its height or width to fit L1: the same "
                           "arithmetic, in pieces",
    "mesh_offset": "which device of a mesh: placement (single-device programs only)",
    "mesh_shape": "the device mesh's shape: placement (single-device programs only)",
    "layout": "tile or row-major storage of the result: the same elements, arranged differently",
    "dtype": "the result's element type, which the IR's result type also states and the engine casts to",
    "output_dtype": "the result's element type, which the IR's result type also states and the engine casts to",
}

# Structured attributes: every field inside them decided, one by one. A field listed here with a reason leaves the
# values alone; any other field must be honoured by the op's handler, which declares it as "attribute.field"
# (`conv2d_config.activation`), or the run refuses naming the field.
_KERNEL_PRECISION = ("the chip's arithmetic precision: the interpreter computes in the IR's element types, so "
                     "what this costs only the chip or the simulator shows (every interpreted result says so)")
_BLOCKING = "how the kernel blocks or schedules its work over cores: the same arithmetic"
_PLACEMENT = "where tensors live (sharding, core grid, double buffering): placement, not values"
ATTRIBUTE_FIELDS = {
    "compute_config": {
        "math_fidelity": _KERNEL_PRECISION, "fp32_dest_acc_en": _KERNEL_PRECISION,
        "math_approx_mode": _KERNEL_PRECISION, "packer_l1_acc": _KERNEL_PRECISION,
        "dst_full_sync_en": "how the destination register is synchronised: scheduling",
        "throttle_level": "how fast the math engine is clocked: scheduling",
    },
    "conv2d_config": {
        "dtype": "the output element type, which the IR's result type also states and the engine casts to",
        "deallocate_activation": "whether the input buffer is freed after the op: memory management",
        "reallocate_halo_output": "whether the halo buffer is moved after use: memory management",
        "config_tensors_in_dram": "where the kernel's own configuration tensors live: placement",
        "act_block_h_override": _BLOCKING, "act_block_w_div": _BLOCKING, "reshard_if_not_optimal": _PLACEMENT,
        "override_sharding_config": _PLACEMENT, "shard_layout": _PLACEMENT, "core_grid": _PLACEMENT,
        "transpose_shards": _PLACEMENT, "output_layout": "tile or row-major storage of the result: same elements",
        "enable_act_double_buffer": _PLACEMENT, "enable_weights_double_buffer": _PLACEMENT,
        "enable_split_reader": _BLOCKING, "enable_subblock_padding": _BLOCKING, "in_place": _PLACEMENT,
        "enable_kernel_stride_folding": "folds the stride into the input's layout before the kernel runs: the "
                                        "same convolution, rearranged",
        "full_inner_dim": _BLOCKING, "enable_activation_reuse": _BLOCKING,
        "override_output_sharding_config": _PLACEMENT, "force_split_reader": _BLOCKING,
    },
    "conv3d_config": {
        "t_out_block": _BLOCKING, "w_out_block": _BLOCKING, "h_out_block": _BLOCKING, "c_out_block": _BLOCKING,
        "compute_with_storage_grid_size": _PLACEMENT,
        "dtype": "the output element type, which the IR's result type also states and the engine casts to",
        "weights_dtype": "the element type the weights are prepared in, which prepare_conv3d_weights' result type "
                         "states and the engine casts to",
        "output_layout": "tile or row-major storage of the result: same elements",
    },
}


# The fields that leave the interpreter's values alone only because it computes at full precision: a device (the
# chip, the simulator's replay) must be handed them, or it computes at another precision than the program says.
KERNEL_PRECISION_FIELDS = frozenset((attribute, name) for attribute, fields in ATTRIBUTE_FIELDS.items()
                                    for name, reason in fields.items() if reason is _KERNEL_PRECISION)


def field_decision(attribute: str, field_name: str) -> str:
    """Why `field_name` of structured `attribute` leaves the values alone; "" when it does not (it changes them and
    a handler must honour it)."""
    return ATTRIBUTE_FIELDS.get(attribute, {}).get(field_name, "")


class Unsupported(Exception):
    """The interpreter does not know an op kind, attribute or attribute value: the run refuses, never guesses.
    `what` completes "the interpreter does not know ..." (something it may learn: "yet" follows); `why`, given
    instead, is the whole reason (the program itself is ambiguous: nothing to learn)."""

    def __init__(self, op: Op, what: str = "", why: str = ""):
        where = f" at {op.location}" if op.location else ""
        module = f" in module {op.module}" if op.module else ""
        which = f"{op.name} #{op.index}{where}{module}"
        super().__init__(f"{op.name} cannot be interpreted: {why} ({which})" if why else
                         f"the {op.name.split('.')[0].upper()} interpreter does not know {what} ({which}) yet")
        self.op = op
        self.what, self.why = what, why


@dataclass
class InPlace:
    """What a handler of an in-place op returns (a KV-cache update): operand position -> its new value. The engine
    rebinds that operand's name, so later uses and the function's returns see the update, and the caller's own
    tensors are never written."""

    updates: dict


def op_place(op) -> str:
    """How a message names an op of the program: `ttnn.add #87 at model.py:12`."""
    return f"{op.name} #{op.op.index} at {op.op.location or '?'}"


class ProgramFault(Exception):
    """The compiled program itself does something with no defined value (reads out of bounds, divides an integer
    by zero): the program's fault, named with its op and line, never ttbench's and never a guessed value."""


class InterpreterBug(Exception):
    """A handler failed or produced a result that contradicts the IR's own type: ttbench's bug (or a reading of the
    op's semantics that is wrong), never the compiler's; named with the op and its line."""


@dataclass(frozen=True)
class Handler:
    fn: Callable  # (ctx, op, inputs) -> list of tensors (one per tensor result); fn.prepare(op), when present,
    # returns a function of the same form specialised to that op's attributes (made once per program)
    attributes: frozenset  # the attributes it honours (besides DEVICE_ONLY_ATTRIBUTES), and the fields of
    # structured attributes that change values ("conv2d_config.activation")
    reference: str  # the documented semantics it follows


HANDLERS: dict = {}


def handles(*names: str, attributes=(), reference: str = ""):
    """Register `fn` as the handler of op kinds `names`."""
    def register(fn):
        for name in names:
            if name in HANDLERS:
                raise RuntimeError(f"two handlers for {name}")
            HANDLERS[name] = Handler(fn, frozenset(attributes), reference or (fn.__doc__ or "").strip())
        return fn
    return register


def unsupported_reason(op: ProgramOp) -> Optional[str]:
    """Why the interpreter would refuse `op`, before running anything; None when it knows the op and every attribute
    and structured field it carries."""
    handler = HANDLERS.get(op.name)
    if handler is None:
        return f"{op.name}"
    unknown = []
    for name, value in op.attributes.items():
        if name in ATTRIBUTE_FIELDS:
            try:
                fields = value.fields() if isinstance(value, Opaque) else None
            except AttributeSyntaxError:
                fields = None
            if fields is None:
                unknown.append(f"{name} = {value!r}")
                continue
            unknown.extend(f"field {f} of {name}" for f in fields
                           if not field_decision(name, f) and f"{name}.{f}" not in handler.attributes)
        elif name not in handler.attributes and name not in DEVICE_ONLY_ATTRIBUTES:
            unknown.append(f"attribute {name}")
    if unknown:
        return f"{', '.join(sorted(unknown))} of {op.name}"
    return None
