"""Printed MLIR, for IR that exists only as text: the TTIR/TTNN files the Tenstorrent plugin writes (torch-mlir's
context cannot load tt-mlir's dialects) and the stage files of export folders (`ttbench diff`). Modules held in
memory are walked with the bindings instead (walk.py); this parser follows the same rules, so both give the same
ops for the same IR: ops in region bodies (a reduce_window's reducer) belong to their op, which takes its location
from its closing line; control flow's regions hold ops of the stage; strings use MLIR's escaping.

Also here: the text rewrites the Tenstorrent plugin and the PJRT client need (weight elision for display,
resource inlining, the plugin's one legalisation).
"""
from __future__ import annotations

import re
from typing import Optional

from ..core import Op
from .dialects import CONSTANT_VALUE_ATTRS, CONTROL_FLOW_OPS, ITEM_SIZE, ConstantFacts, is_structural
from .locations import LocTable, read_mlir_string, user_frame

_OP_RE = re.compile(r'^\s*(?:%[^=]*?=\s*)?"?([a-z_][\w]*\.[\w.$]+)"?(?=[\s(<{]|$)')
_FUNC_RE = re.compile(r'^\s*func\.func (?:private |public |nested )?@([\w$.-]+|"(?:[^"\\]|\\.)*")')
_RESOURCES_START_RE = re.compile(r"\n\{-#\s*dialect_resources:")  # the trailer runs from here to a final `#-}`
BIG_HEX_RE = re.compile(r'dense<"0x([0-9A-Fa-f]{65,})">')  # a weight payload printed inline
_BIG_BLOB_RE = re.compile(r'(\w+: )"0x[0-9A-Fa-f]{65,}"')
_BIG_LIST_RE = re.compile(r"dense<\[[^<>]{200,}?\]>")
_RESULTS_RE = re.compile(r"^((?:%[\w$.-]+(?::\d+)?)(?:, %[\w$.-]+(?::\d+)?)*) = ")
_VALUE_REF_RE = re.compile(r"%[\w$.-]+(?:#\d+)?")
_TRANSPARENT_LINE_RE = re.compile(r"^(?:module\b|builtin\.module\b|ttcore\.device_module\b)")


def loc_body_at_end(line: str):
    """The body of the op's own `loc(...)` at the end of a printed line, or None."""
    stripped = line.rstrip()
    if not stripped.endswith(")"):
        return None
    start = stripped.rfind(" loc(")
    if start < 0:
        return None
    return stripped[start + 5:-1]


def _without_loc(line: str) -> str:
    stripped = line.strip()
    if loc_body_at_end(stripped) is not None:
        stripped = stripped[:stripped.rfind(" loc(")]
    return stripped


def parse_op_name(line: str):
    """The op a printed line defines ("stablehlo.add", "onnx.Conv" for ONNX's torch.operator), or None for
    lines that are not ops of a stage (aliases, functions, structure, terminators)."""
    if line.startswith("#"):
        return None
    m = _OP_RE.match(line)
    if not m:
        return None
    name = m.group(1)
    if name == "torch.operator":  # ONNX ops before conversion: name them after the ONNX op
        at = line.find('torch.operator "')
        if at >= 0:
            name = read_mlir_string(line, at + len("torch.operator "))[0]
    if is_structural(name):
        return None
    return name


def _brace_delta(line: str) -> int:
    """Opening minus closing braces outside string literals."""
    delta, i, n = 0, 0, len(line)
    while i < n:
        c = line[i]
        if c == '"':
            i += 1
            while i < n and line[i] != '"':
                i += 2 if line[i] == "\\" else 1
        elif c == "{":
            delta += 1
        elif c == "}":
            delta -= 1
        i += 1
    return delta


def _value_names(head: str):
    """(results, operands) SSA names of an op's printed head; `%0:2 = ...` defines %0#0 and %0#1."""
    m = _RESULTS_RE.match(head)
    results: list = []
    if m:
        for part in m.group(1).split(", "):
            name, _, count = part.partition(":")
            results.extend([f"{name}#{k}" for k in range(int(count))] if count else [name])
        head = head[m.end():]
    return tuple(results), tuple(_VALUE_REF_RE.findall(head))


_TENSOR_TYPE_RE = re.compile(r"tensor<([^<>]*)>")


def _result_bytes(head: str) -> int:
    """Bytes of the first result tensor type an op's printed head ends with (0 when unknown)."""
    tail = head.rsplit("->", 1)[-1] if "->" in head else head.rsplit(" : ", 1)[-1]
    found = _TENSOR_TYPE_RE.findall(tail)
    parsed = parse_tensor_type(found[-1].split(",")[0]) if found else None
    if not parsed or parsed[1] not in ITEM_SIZE:
        return 0
    n = 1
    for d in parsed[0]:
        n *= d
    return n * ITEM_SIZE[parsed[1]]


def parse_ops(text: str) -> list:
    """Ops of a printed module in printed order, each with its user source location (None if not known)."""
    body, _ = split_resources(text)
    table = LocTable(body)
    ops: list = []
    func = None
    regions = _Regions()  # open regions, innermost last
    for line in body.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "^", "//")):
            continue
        delta = _brace_delta(stripped)
        if stripped.startswith("}"):
            closes = max(1, -delta) if delta < 0 else 0
            for _ in range(min(closes, len(regions))):
                kind, op = regions.pop()
                if kind == "func":
                    func = None
                if op is not None and not regions.in_body:
                    _close_region_op(op, stripped, table)
            continue
        if regions.in_body:
            regions.push("body", None, max(0, delta))
            continue
        fm = _FUNC_RE.match(line)
        if fm:
            func = fm.group(1)
            func = read_mlir_string(func, 0)[0] if func.startswith('"') else func
            regions.push("func", None, max(0, delta))
            continue
        name = parse_op_name(stripped)
        if name is None:
            if delta > 0:  # `module {`, a structural op, or a region continuing an op (`cond {`)
                if _TRANSPARENT_LINE_RE.match(stripped) or _OP_RE.match(stripped) or not ops:
                    regions.push("open", None, delta)
                else:  # the first region of an op printed in custom form over several lines closes with its loc
                    kind = "counted" if ops[-1].name in CONTROL_FLOW_OPS else "body"
                    regions.push(kind, None if regions.holds(ops[-1]) else ops[-1])
                    regions.push(kind, None, delta - 1)
            continue
        loc_body = loc_body_at_end(stripped) if delta <= 0 else None
        chain = table.frames(loc_body) if loc_body is not None else ()
        head = _without_loc(stripped)
        results, operands = _value_names(head)
        attrs = {"func": func, "has_loc": loc_body is not None, "results": results, "operands": operands,
                 "result_bytes": _result_bytes(head)}
        if name in CONSTANT_VALUE_ATTRS:
            facts = constant_facts_from_text(head)
            if facts is not None:
                attrs["constant"] = facts
        op = Op(index=len(ops), name=name, location=user_frame(chain), chain=chain, text=head, attrs=attrs,
                module=table.module(loc_body) if loc_body is not None else None)
        ops.append(op)
        if delta > 0:
            kind = "counted" if name in CONTROL_FLOW_OPS else "body"
            regions.push(kind, op)
            regions.push(kind, None, delta - 1)
    return ops


class _Regions:
    """The open regions while reading printed IR, innermost last: (kind, the op that owns it or None); kind is
    "func", "open", "counted" (control flow: its ops are the stage's) or "body" (an op's own body: not counted).
    Whether any body is open and which ops own one are kept as counts, so each line costs O(1) however deep the
    nesting (a hostile file with thousands of open braces made the per-line scans quadratic)."""

    def __init__(self):
        self._stack: list = []
        self._bodies = 0
        self._owners: dict = {}  # id(op) -> regions it owns on the stack

    def __len__(self) -> int:
        return len(self._stack)

    @property
    def in_body(self) -> bool:
        return self._bodies > 0

    def holds(self, op) -> bool:
        return self._owners.get(id(op), 0) > 0

    def push(self, kind: str, op, times: int = 1) -> None:
        for _ in range(times):
            self._stack.append((kind, op))
            self._bodies += kind == "body"
            if op is not None:
                self._owners[id(op)] = self._owners.get(id(op), 0) + 1

    def pop(self) -> tuple:
        kind, op = self._stack.pop()
        self._bodies -= kind == "body"
        if op is not None:
            self._owners[id(op)] -= 1
        return kind, op


def _close_region_op(op: Op, closing_line: str, table: LocTable) -> None:
    """An op printed over several lines ends with `}) : type loc(...)`: its location and type are there."""
    loc_body = loc_body_at_end(closing_line)
    if loc_body is not None and not op.attrs["has_loc"]:
        op.chain = table.frames(loc_body)
        op.module = table.module(loc_body)
        op.location = user_frame(op.chain)
        op.attrs["has_loc"] = True
    tail = _without_loc(closing_line)
    if tail not in ("}", "})"):
        op.text = f"{op.text} … {tail}"
        op.attrs["result_bytes"] = _result_bytes(op.text)


def elide_weights(text: str) -> str:
    """Replace weight payloads (hex blobs, long literal lists, resource blobs) by a short marker."""
    text = BIG_HEX_RE.sub("dense_resource<__elided__>", text)
    text = _BIG_LIST_RE.sub("dense_resource<__elided__>", text)
    return _BIG_BLOB_RE.sub(r'\1"0x__elided__"', text)


def split_resources(text: str):
    """(IR without the `dialect_resources` trailer, the trailer). Concatenated they parse again."""
    # Linear in the text: a file with many section markers (a hostile one) made the old lazy regex quadratic.
    m = _RESOURCES_START_RE.search(text) if text.rstrip().endswith("#-}") else None
    if not m:
        return text, ""
    return text[:m.start()] + "\n", text[m.start():].lstrip("\n")


def legalize_for_tt(stablehlo_text: str) -> str:
    """The minimal rewrite the Tenstorrent plugin needs: torch-mlir leaves tensor `arith.constant` ops in StableHLO,
    and the plugin refuses modules that mix dialects."""
    return re.sub(r"\barith\.constant dense", "stablehlo.constant dense", stablehlo_text)


# One entry of a `dialect_resources` section: key (bare or quoted) and the hex of its blob.
RESOURCE_ENTRY_RE = re.compile(r'^\s*((?:[\w.$-]+|"(?:[^"\\]|\\.)*")): "0x([0-9A-Fa-f]*)"', re.M)


def resource_blobs(trailer: str) -> dict:
    """key -> hex of the raw bytes of each resource blob (its 4-byte alignment header dropped)."""
    return {k.strip('"'): h[8:] for k, h in RESOURCE_ENTRY_RE.findall(trailer)}


_ALIAS_DEF_RE = re.compile(r"^([#!][A-Za-z_][\w$.-]*) = (.*)$")
_ALIAS_USE_RE = re.compile(r"[#!][A-Za-z_][\w$.-]*")


def aliases(text: str) -> dict:
    """`#name`/`!name` -> its definition with the aliases inside expanded, for the attribute and type aliases at
    the top of a printed module (locations apart). The printer numbers them afresh per module (`#ttnn_layout3`
    here is `#ttnn_layout2` there), so IR compared across modules must read through them."""
    table: dict = {}
    budget = expansion_budget(text)
    for line in text.splitlines():
        if not line.startswith(("#", "!")):
            if line.strip():
                break  # aliases come first; the module's body starts here
            continue
        m = _ALIAS_DEF_RE.match(line.rstrip())
        if m and not m.group(2).startswith("loc("):
            # The printer defines an alias before any alias that uses it, so one pass expands every level.
            table[m.group(1)] = expand_aliases(m.group(2), table)
            budget -= len(table[m.group(1)])
            if budget < 0:
                raise ValueError("the aliases, read through, are many times the size of the file")
    return table


def expansion_budget(text: str) -> int:
    """How many characters reading `text`'s aliases through may make in all (a bound on memory, not a size any
    printed module comes near)."""
    return 8 * len(text) + (1 << 20)


# Read through, an alias may not grow a text by more than this: a TTNN layout is a few hundred characters, and
# aliases that each use the one before twice would otherwise double a text per line (untrusted files).
ALIAS_GROWTH_LIMIT = 1 << 16


def expand_aliases(text: str, table: dict) -> str:
    """`text` with the aliases of `table` read through; ValueError past ALIAS_GROWTH_LIMIT."""
    if not table:
        return text
    grown = 0

    def one(m) -> str:
        nonlocal grown
        found = table.get(m.group(0), m.group(0))
        grown += len(found) - len(m.group(0))
        if grown > ALIAS_GROWTH_LIMIT:
            raise ValueError(f"aliases grow a line past {ALIAS_GROWTH_LIMIT} characters")
        return found
    return _ALIAS_USE_RE.sub(one, text)


def inline_resources(text: str) -> str:
    """Every `dense_resource<key>` replaced by `dense<"0x...">` with its bytes, the resources section dropped:
    XLA accepts only dense elements ("Only dense elements attr are supported")."""
    ir, trailer = split_resources(text)
    if not trailer:
        return text
    blobs = resource_blobs(trailer)

    def sub(m):
        data = blobs.get(m.group(1).strip('"'))
        return f'dense<"0x{data}">' if data is not None else m.group(0)

    return re.sub(r'dense_resource<((?:[\w.$-]+|"(?:[^"\\]|\\.)*"))>', sub, ir)


# --- tensor constants in printed IR ------------------------------------------------------------------------
_VALUE_RE = re.compile(r'dense(_resource)?<("0x[0-9A-Fa-f]*"|[^<>]*?)>\s*:\s*tensor<([^,<>]*(?:<[^<>]*>)?)')
_HEX_VALUE_RE = re.compile(r'dense<"0x([0-9A-Fa-f]+)">')
_RESOURCE_REF_RE = re.compile(r'dense_resource<((?:[\w.$-]+|"(?:[^"\\]|\\.)*"))>')


def parse_tensor_type(type_text: str):
    """'64x256xf32' -> ((64, 256), 'f32'); 'f32' -> ((), 'f32'); None for dynamic shapes."""
    parts = type_text.strip().split("x")
    dims = []
    for p in parts[:-1]:
        if not p.isdigit():
            return None
        dims.append(int(p))
    return tuple(dims), parts[-1]


def constant_facts_from_text(op_text: str) -> Optional[ConstantFacts]:
    """What walk.constant_facts gives for a live op, read from one printed constant op."""
    m = _VALUE_RE.search(op_text)
    if not m:
        return None
    parsed = parse_tensor_type(m.group(3))
    if parsed is None:
        return None
    shape, dtype = parsed
    item = ITEM_SIZE.get(dtype)
    if item is None:
        return None
    numel = 1
    for d in shape:
        numel *= d
    nbytes = numel * item
    body = m.group(2)
    if m.group(1) or body.startswith(("[", '"0x')):  # resources, element lists and hex hold every element
        embedded, splat = nbytes, False
        if body.startswith('"0x'):
            embedded = (len(body) - 4) // 2
            splat = embedded < nbytes
    else:  # dense<1.0> : tensor<64x64xf32> stores one element for all of them
        embedded, splat = item, numel > 1
    resource = body.strip('"') if m.group(1) else None
    return ConstantFacts(shape=list(shape), dtype=dtype, nbytes=nbytes, embedded_bytes=embedded, splat=splat,
                         resource=None if resource == "__elided__" else resource, attr=None)


def constant_payloads(full_text: str) -> dict:
    """op index (as parse_ops numbers the same IR) -> raw bytes of each constant whose payload the text holds in
    full (hex literals and resource blobs)."""
    ir, trailer = split_resources(full_text)
    blobs = resource_blobs(trailer)
    out = {}
    for op in parse_ops(ir):
        if "constant" not in op.attrs:
            continue
        m = _HEX_VALUE_RE.search(op.text)
        hexdata = m.group(1) if m else None
        if hexdata is None:
            r = _RESOURCE_REF_RE.search(op.text)
            hexdata = blobs.get(r.group(1).strip('"')) if r else None
        if hexdata:
            out[op.index] = bytes.fromhex(hexdata)
    return out
