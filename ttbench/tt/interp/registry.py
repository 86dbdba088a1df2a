"""The interpreter's registry: one handler per op kind (`handles`), the attributes each honours, the element types
values are computed in, and the ways a run refuses (`Unsupported`) or fails on ttbench's side (`InterpreterBug`).
handlers.py fills it; engine.py plans and runs with it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import torch

from ...core import Op
from ..program import ProgramOp, TensorType

# Attributes that steer only where and how the device computes (placement, kernels, program configs, folding
# hints): no effect on the values, so every handler accepts them.
DEVICE_ONLY_ATTRIBUTES = frozenset({
    "compute_config", "matmul_program_config", "conv2d_config", "memory_config", "use_multicore",
    "config_tensors_in_dram", "reallocate_halo_output", "conservative_folding", "force", "mesh_offset",
    "mesh_shape", "layout", "dtype", "output_dtype", "in_place_halo", "deallocate_activation",
})

# MLIR element type -> the torch dtype its values are computed in. Unsigned 16/32-bit integers are held in the
# next wider signed type (torch has few kernels for uint16/uint32): same values, never wrapped.
TORCH_DTYPES = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16, "bf16": torch.bfloat16,
                "i1": torch.bool, "i8": torch.int8, "si8": torch.int8, "ui8": torch.uint8, "i16": torch.int16,
                "si16": torch.int16, "i32": torch.int32, "si32": torch.int32, "ui32": torch.int64,
                "i64": torch.int64, "si64": torch.int64, "ui16": torch.int32}


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


@dataclass
class InPlace:
    """What a handler of an in-place op returns (a KV-cache update): operand position -> its new value. The engine
    rebinds that operand's name, so later uses and the function's returns see the update, and the caller's own
    tensors are never written."""

    updates: dict


class InterpreterBug(Exception):
    """A handler failed or produced a result that contradicts the IR's own type: ttbench's bug (or a reading of the
    op's semantics that is wrong), never the compiler's; named with the op and its line."""


@dataclass(frozen=True)
class Handler:
    fn: Callable  # (ctx, op, inputs) -> list of tensors (one per tensor result); fn.prepare(op), when present,
    # returns a function of the same form specialised to that op's attributes (made once per program)
    attributes: frozenset  # the attributes it honours (besides DEVICE_ONLY_ATTRIBUTES)
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
    """Why the interpreter would refuse `op`, before running anything; None when it knows the op."""
    handler = HANDLERS.get(op.name)
    if handler is None:
        return f"{op.name}"
    unknown = sorted(set(op.attributes) - handler.attributes - DEVICE_ONLY_ATTRIBUTES)
    if unknown:
        return f"attribute {', '.join(unknown)} of {op.name}"
    return None


def torch_dtype(t: Optional[TensorType]):
    if t is None:
        return None
    dtype = TORCH_DTYPES.get(t.element)
    if dtype is None:
        raise KeyError(t.element)
    return dtype
