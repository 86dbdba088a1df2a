"""The values a program's constants state: a `ttir/ttnn.constant`'s dense literal or resource blob read into a
tensor of the literal's own element type. The program model's one reader of constants, which the interpreter (its
constant handler) and the simulator's replay (the constants it places) both use."""
from __future__ import annotations

import math
import re
from typing import Optional

import numpy as np
import torch

from ..ir.attributes import Dense, decode_number
from ..ir.op_head import TensorType, parse_type
from ..ir.walk import np_dtype
from .program import Program, ProgramOp


class ConstantUnknown(Exception):
    """A constant ttbench cannot read (an attribute kind it does not know, a blob the text lacks)."""


class ConstantFault(Exception):
    """A constant that states another amount of data than its type holds: the program's fault."""


# MLIR element type -> the torch dtype its values are computed in. Unsigned 16/32-bit integers are held in the
# next wider signed type (torch has few kernels for uint16/uint32): same values, never wrapped.
TORCH_DTYPES = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16, "bf16": torch.bfloat16,
                "i1": torch.bool, "i8": torch.int8, "si8": torch.int8, "ui8": torch.uint8, "i16": torch.int16,
                "si16": torch.int16, "i32": torch.int32, "si32": torch.int32, "ui32": torch.int64,
                "i64": torch.int64, "si64": torch.int64, "ui16": torch.int32}


def torch_dtype(t: Optional[TensorType]):
    if t is None:
        return None
    dtype = TORCH_DTYPES.get(t.element)
    if dtype is None:
        raise KeyError(t.element)
    return dtype


def _dense_value(program: Program, op: ProgramOp, value: Dense):
    t = parse_type(value.type) if value.type else op.result_types[0]  # the literal's own type; the engine casts
    if t is None:
        raise ConstantUnknown(f"a constant of a type that is not a tensor ({value.type or 'its result type'})")
    body = value.body.strip()
    if value.resource:
        if value.resource not in program.resources:
            raise ConstantUnknown(f"dense_resource<{value.resource}> (its blob is not in the stage's text)")
        body = '"0x' + program.resources[value.resource] + '"'
    dtype = torch_dtype(t)
    if body.startswith('"0x'):
        count = math.prod(t.shape)
        width = 1 if t.element == "i1" else np.dtype(np_dtype(t.element)).itemsize
        if len(body) - 4 > 2 * max(count * width, 1):  # checked before the text becomes bytes
            raise ConstantFault(f"holds {(len(body) - 4) // 2} bytes for a constant of {t}")
        raw = bytes.fromhex(body[3:-1])
        if t.element == "i1" and count > 1 and len(raw) == (count + 7) // 8 != count:
            # MLIR keeps a dense i1 literal as packed bits, the first element in the lowest bit of the first byte
            bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")[:count]
            return torch.from_numpy(bits.astype(bool)).reshape(t.shape)
        if len(raw) not in (width, count * width):  # one element (a splat) or all of them
            raise ConstantFault(f"holds {len(raw)} bytes for a constant of {t}")
        arr = np.frombuffer(raw, dtype=np_dtype(t.element))
        if arr.size == 1:
            return torch.from_numpy(arr.astype(np.float64) if t.element == "bf16" else arr.copy()).reshape(()) \
                .expand(t.shape).to(dtype).clone()
        return torch.from_numpy(arr.astype(np.float32) if t.element == "bf16" else arr.copy()).reshape(t.shape)
    values = _literal(body, t.element)
    if len(values) not in (1, math.prod(t.shape)):
        raise ConstantFault(f"states {len(values)} values for a constant of {t}")
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


def constant_value(program: Program, op: ProgramOp) -> torch.Tensor:
    """The value a `ttir/ttnn.constant` op states (a dense literal or a resource blob of `program`), in the
    literal's own element type: one reader of constants for the interpreter and the simulator's replay."""
    value = op.attributes.get("value")
    if not isinstance(value, Dense):
        raise ConstantUnknown(f"constant value {value!r}")
    return _dense_value(program, op, value)
