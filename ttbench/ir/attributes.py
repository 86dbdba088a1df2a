"""MLIR attribute values read from printed IR, for ops that exist only as text (TTIR/TTNN: torch-mlir's context
cannot load tt-mlir's dialects, see text.py).

A value becomes plain Python where MLIR's meaning is plain (integers, floats — hex bit patterns included —, bools,
strings, arrays, dictionaries, `array<i32: ...>`), and `Opaque` otherwise: a dialect attribute such as
`#ttnn.shape<1x1>` or `#ttcore.supportedDataTypes<bf16>` keeps its name and the text between its brackets, and
whoever needs it reads that body. `Dense` keeps a `dense<...>` literal with its tensor type.
"""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import Any
from .brackets import AttributeSyntaxError, skip_balanced
from .locations import read_mlir_string


class TextLimit(AttributeSyntaxError):
    """The text goes past what ttbench reads (nesting, a number's length, a hex wider than its type): no compiler
    prints such a thing, an edit or a hostile file can; refused in one line, never a RecursionError."""


MAX_NESTING = 64  # brackets inside brackets, in one attribute
MAX_NUMBER_CHARS = 80  # an i64 has 20 digits, a double's shortest repr 24 characters

_HEX_BITS = {"bf16": 16, "f16": 16, "f32": 32, "f64": 64}


@dataclass(frozen=True)
class Opaque:
    """A dialect attribute: `#ttnn.shape<1x1>` -> Opaque("#ttnn.shape", "1x1"); `#ttnn<mesh_offset 0x0>` ->
    Opaque("#ttnn", "mesh_offset 0x0"); an alias `#loc3` -> Opaque("#loc3", "")."""

    name: str
    body: str

    def fields(self) -> dict:
        """`key = value, ...` inside the brackets as a dict of parsed values (a config attribute's fields)."""
        return parse_attr_dict("{" + self.body + "}") if "=" in self.body else {}


@dataclass(frozen=True)
class Dense:
    """`dense<BODY> : tensor<TYPE>`: BODY as printed (a splat, a nested list or a hex string), TYPE as printed."""

    body: str
    type: str
    resource: str = ""  # `dense_resource<KEY>`: the key of its blob in the module's resources (body empty)


@dataclass(frozen=True)
class TypedNumber:
    """A number with its MLIR type (`1 : i32`, `0xFF800000 : f32`): value already decoded."""

    value: Any
    type: str


_NUMBER_RE = re.compile(r"-?(?:0x[0-9A-Fa-f]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|inf|nan)")
_IDENT_RE = re.compile(r"[A-Za-z_][\w$.-]*")
_FLOAT_HEX_FORMATS = {"f32": ("<I", "<f"), "f64": ("<Q", "<d")}


def _skip_space(s: str, i: int) -> int:
    while i < len(s) and s[i] in " \t\n":
        i += 1
    return i


def decode_number(token: str, type_name: str):
    """A printed number of MLIR type `type_name`; a hex token of a float type is the value's bit pattern."""
    if len(token) > MAX_NUMBER_CHARS:
        raise TextLimit(f"a number of {len(token)} characters (ttbench reads up to {MAX_NUMBER_CHARS})")
    if token.lstrip("-").startswith("0x"):
        raw = int(token, 16)
        if abs(raw) >> _HEX_BITS.get(type_name, 64):
            raise TextLimit(f"{token} is wider than its type {type_name or 'i64'}")
        if type_name in _FLOAT_HEX_FORMATS:  # a float printed as its bit pattern (0xFF800000 is -inf)
            int_fmt, float_fmt = _FLOAT_HEX_FORMATS[type_name]
            return struct.unpack(float_fmt, struct.pack(int_fmt, raw))[0]
        if type_name in ("bf16",):
            return struct.unpack("<f", struct.pack("<I", raw << 16))[0]
        if type_name == "f16":
            return struct.unpack("<e", struct.pack("<H", raw))[0]
        return raw
    if type_name and type_name[0] in "fb" or any(ch in token for ch in ".eE") or token.lstrip("-") in ("inf", "nan"):
        return float(token)
    return int(token)


def _parse_value(s: str, i: int, depth: int = 0):
    if depth > MAX_NESTING:
        raise TextLimit(f"an attribute nested deeper than {MAX_NESTING} levels")
    i = _skip_space(s, i)
    if i >= len(s):
        raise AttributeSyntaxError("attribute value expected at the end")
    c = s[i]
    if c == "[":
        items, i = _parse_sequence(s, i + 1, "]", depth + 1)
        return items, i
    if c == "{":
        return _parse_dict(s, i + 1, depth + 1)
    if c == '"':
        return read_mlir_string(s, i)
    if c == "<":  # a nested attribute printed without its name (`activation = <op_type = relu>`)
        end = skip_balanced(s, i)
        return Opaque("", s[i + 1:end - 1]), end
    if c == "#":
        m = _IDENT_RE.match(s, i + 1)
        name = "#" + (m.group(0) if m else "")
        j = m.end() if m else i + 1
        if j < len(s) and s[j] == "<":
            end = skip_balanced(s, j)
            return Opaque(name, s[j + 1:end - 1]), end
        return Opaque(name, ""), j
    if s.startswith("array<", i):
        end = skip_balanced(s, i + 5)
        body = s[i + 6:end - 1]
        type_name, _, values = body.partition(":")
        items = [decode_number(v.strip(), type_name.strip()) for v in values.split(",") if v.strip()]
        if type_name.strip() == "i1":
            items = [bool(v) for v in items]
        return items, end
    if s.startswith(("dense<", "dense_resource<"), i):
        resource = s.startswith("dense_resource<", i)
        at = s.index("<", i)
        end = skip_balanced(s, at)
        body = s[at + 1:end - 1]
        j = _skip_space(s, end)
        type_text = ""
        if s.startswith(":", j):
            j = _skip_space(s, j + 1)
            m = _IDENT_RE.match(s, j)
            k = m.end() if m else j
            if k < len(s) and s[k] == "<":
                k = skip_balanced(s, k)
            type_text, end = s[j:k], k
        if resource:
            return Dense("", type_text, body.strip('"')), end
        return Dense(body, type_text), end
    m = _NUMBER_RE.match(s, i)
    if m and (c in "-0123456789" or m.group(0) in ("inf", "nan")):
        token, j = m.group(0), m.end()
        k = _skip_space(s, j)
        type_name = ""
        if s.startswith(":", k) and not s.startswith("::", k):
            t = _IDENT_RE.match(s, _skip_space(s, k + 1))
            if t:
                type_name, j = t.group(0), t.end()
        value = decode_number(token, type_name)
        return (TypedNumber(value, type_name) if type_name else value), j
    m = _IDENT_RE.match(s, i)
    if m:
        word, j = m.group(0), m.end()
        if word in ("true", "false"):
            return word == "true", j
        if j < len(s) and s[j] == "<":  # a type such as tensor<...> or an unnamespaced attribute
            end = skip_balanced(s, j)
            return Opaque(word, s[j + 1:end - 1]), end
        return Opaque(word, ""), j
    if c == "@":
        m = _IDENT_RE.match(s, i + 1)
        if m:
            return Opaque("@", m.group(0)), m.end()
    raise AttributeSyntaxError(f"cannot read the attribute value at {s[i:i + 60]!r}")


def _parse_sequence(s: str, i: int, close: str, depth: int = 0):
    items: list = []
    i = _skip_space(s, i)
    if s.startswith(close, i):
        return items, i + 1
    while True:
        value, i = _parse_value(s, i, depth)
        items.append(value)
        i = _skip_space(s, i)
        if s.startswith(",", i):
            i += 1
            continue
        if s.startswith(close, i):
            return items, i + 1
        raise AttributeSyntaxError(f"',' or {close!r} expected at {s[i:i + 60]!r}")


def _parse_dict(s: str, i: int, depth: int = 0):
    out: dict = {}
    i = _skip_space(s, i)
    if s.startswith("}", i):
        return out, i + 1
    while True:
        i = _skip_space(s, i)
        if s.startswith('"', i):
            key, i = read_mlir_string(s, i)
        else:
            m = _IDENT_RE.match(s, i)
            if not m:
                raise AttributeSyntaxError(f"attribute name expected at {s[i:i + 60]!r}")
            key, i = m.group(0), m.end()
        i = _skip_space(s, i)
        if s.startswith("=", i):
            out[key], i = _parse_value(s, i + 1, depth)
        else:
            out[key] = True  # a unit attribute
        i = _skip_space(s, i)
        if s.startswith(",", i):
            i += 1
            continue
        if s.startswith("}", i):
            return out, i + 1
        raise AttributeSyntaxError(f"',' or '}}' expected at {s[i:i + 60]!r}")


def parse_attr_dict(text: str) -> dict:
    """`{a = 1 : i32, b = [..], c}` -> {"a": TypedNumber(1, "i32"), "b": [...], "c": True}."""
    i = _skip_space(text, 0)
    if not text.startswith("{", i):
        raise AttributeSyntaxError(f"an attribute dictionary starts with '{{', not {text[:40]!r}")
    value, _ = _parse_dict(text, i + 1)
    return value


def parse_attr_value(text: str):
    value, _ = _parse_value(text, 0)
    return value


def plain(value):
    """A parsed value with every TypedNumber replaced by its number (lists and dicts followed)."""
    if isinstance(value, TypedNumber):
        return value.value
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
