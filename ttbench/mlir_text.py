"""Reading printed MLIR: ops with their source locations, weight elision, and the plugin's legalisation.

Working on text (printed with debug info) lets one parser serve every MLIR stage, including TTIR/TTNN that come
back from the Tenstorrent compiler as files and cannot be parsed by torch-mlir's context.
"""
from __future__ import annotations

import re

from .core import Op
from .locations import LocTable, user_frame

# Ops that only give the IR its shape; they are not counted as ops of a stage.
STRUCTURAL_OPS = frozenset({
    "builtin.module", "func.func", "func.return", "ttcore.device_module", "ttcore.device",
    "ml_program.global", "stablehlo.return", "tosa.yield", "scf.yield", "linalg.yield", "torch.prim.Loop.condition",
})

_OP_RE = re.compile(r'^\s*(?:%[^=]*?=\s*)?"?([a-z_][\w]*\.[\w.$]+)"?(?=[\s(<{]|$)')
_FUNC_RE = re.compile(r"^\s*func\.func (?:private |public )?@([\w$.-]+)")
_RESOURCES_RE = re.compile(r"\n\{-#\s*dialect_resources:.*?#-\}\s*$", re.S)
BIG_HEX_RE = re.compile(r'dense<"0x([0-9A-Fa-f]{65,})">')  # a weight payload printed inline
_BIG_BLOB_RE = re.compile(r'(\w+: )"0x[0-9A-Fa-f]{65,}"')
_BIG_LIST_RE = re.compile(r"dense<\[[^<>]{200,}?\]>")


def loc_body_at_end(line: str):
    """The body of the op's own `loc(...)` at the end of a printed line, or None."""
    stripped = line.rstrip()
    if not stripped.endswith(")"):
        return None
    start = stripped.rfind(" loc(")
    if start < 0:
        return None
    return stripped[start + 5:-1]


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
        om = re.search(r'torch\.operator "([^"]+)"', line)
        name = om.group(1) if om else name
    if name in STRUCTURAL_OPS or name.endswith((".return", ".yield")):
        return None
    return name


def parse_ops(text: str) -> list:
    """Ops of a printed module in printed order, each with its user source location (None if not known)."""
    body = _RESOURCES_RE.sub("", text)
    table = LocTable(body)
    ops = []
    func = None
    for line in body.splitlines():
        fm = _FUNC_RE.match(line)
        if fm:
            func = fm.group(1)
            continue
        name = parse_op_name(line)
        if name is None:
            continue
        loc_body = loc_body_at_end(line)
        chain = table.frames(loc_body) if loc_body is not None else ()
        ops.append(Op(index=len(ops), name=name, location=user_frame(chain), chain=chain,
                      text=elide_weights(line.strip()), attrs={"func": func, "has_loc": loc_body is not None}))
    return ops


def elide_weights(text: str) -> str:
    """Replace weight payloads (hex blobs, long literal lists, resource blobs) by a short marker."""
    text = BIG_HEX_RE.sub("dense_resource<__elided__>", text)
    text = _BIG_LIST_RE.sub("dense_resource<__elided__>", text)
    return _BIG_BLOB_RE.sub(r'\1"0x__elided__"', text)


def split_resources(text: str):
    """(IR without the `dialect_resources` trailer, the trailer). Concatenated they parse again."""
    m = _RESOURCES_RE.search(text)
    if not m:
        return text, ""
    return text[:m.start()] + "\n", text[m.start():].lstrip("\n")


def legalize_for_tt(stablehlo_text: str) -> str:
    """The minimal rewrite the Tenstorrent plugin needs: torch-mlir leaves tensor `arith.constant` ops in StableHLO,
    and the plugin refuses modules that mix dialects."""
    return re.sub(r"\barith\.constant dense", "stablehlo.constant dense", stablehlo_text)


# One entry of a `dialect_resources` section: key (bare or quoted) and the hex of its blob.
RESOURCE_ENTRY_RE = re.compile(r'^\s*((?:[\w.$-]+|"(?:[^"\\]|\\.)*")): "0x([0-9A-Fa-f]*)"', re.M)
# The SSA value an op line defines (first result).
SSA_DEF_RE = re.compile(r"^(%[\w$.-]+)(?::\d+)? = ")


def resource_blobs(trailer: str) -> dict:
    """key -> hex of the raw bytes of each resource blob (its 4-byte alignment header dropped)."""
    return {k.strip('"'): h[8:] for k, h in RESOURCE_ENTRY_RE.findall(trailer)}


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
