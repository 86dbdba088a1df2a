"""The constant budget: every tensor embedded in a stage, its size, and which model weight it is.

A constant is named by content: the bytes embedded in the IR are hashed and matched against the model's
parameters, buffers and lifted constants, so a weight keeps its name through every stage however the
compiler renames its resource key.
"""
from __future__ import annotations

import hashlib
import re
from typing import Optional

from ..core import Stage
from .findings import Finding, human_bytes
from .op_kinds import is_constant_op

DEFAULT_MIN_BYTES = 1024
WEIGHT_ROLES = ("parameter", "buffer")

ITEM_SIZE = {"f64": 8, "f32": 4, "tf32": 4, "f16": 2, "bf16": 2, "i1": 1, "i8": 1, "si8": 1, "ui8": 1, "i16": 2,
             "si16": 2, "ui16": 2, "i32": 4, "si32": 4, "ui32": 4, "i64": 8, "si64": 8, "ui64": 8,
             "complex<f32>": 8, "complex<f64>": 16}

_VALUE_RE = re.compile(r'dense(_resource)?<("0x[0-9A-Fa-f]*"|[^<>]*?)>\s*:\s*tensor<([^,<>]*(?:<[^<>]*>)?)')
_HEX_VALUE_RE = re.compile(r'dense<"0x([0-9A-Fa-f]+)">')


def digest(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


def tensor_digest(tensor) -> str:
    return digest(tensor.detach().contiguous().cpu().numpy().tobytes())


def parse_tensor_type(type_text: str):
    """'64x256xf32' -> ((64, 256), 'f32'); 'f32' -> ((), 'f32')."""
    parts = type_text.strip().split("x")
    dims, dtype = [], parts[-1]
    for p in parts[:-1]:
        if not p.isdigit():  # dynamic or unparsable: not a tensor literal we can size
            return None
        dims.append(int(p))
    return tuple(dims), dtype


def constant_value(op_text: str) -> Optional[dict]:
    """Shape, dtype, logical and embedded bytes of the tensor literal in one printed constant op."""
    m = _VALUE_RE.search(op_text)
    if not m:
        return None
    parsed = parse_tensor_type(m.group(3))
    if parsed is None:
        return None
    shape, dtype = parsed
    numel = 1
    for d in shape:
        numel *= d
    item = ITEM_SIZE.get(dtype, 4)
    nbytes = numel * item
    body = m.group(2)
    if m.group(1) or body.startswith(("[", '"0x')):  # resources, element lists and hex hold every element
        embedded, splat = nbytes, False
        if body.startswith('"0x'):
            embedded = (len(body) - 4) // 2
            splat = embedded < nbytes
    else:  # dense<1.0> : tensor<64x64xf32> stores one element for all of them
        embedded, splat = item, numel > 1
    return {"shape": list(shape), "dtype": dtype, "nbytes": nbytes, "embedded_bytes": embedded, "splat": splat,
            "resource": body if m.group(1) else None}


def payload_digests(full_text: str) -> dict:
    """Digest of each constant payload in the full IR, by op order among constant ops: {position: digest}.
    Positions count constant-op lines in printed order, as `stage_constants` does on the readable text."""
    from ..mlir_text import parse_op_name, resource_blobs

    main, _, trailer = full_text.partition("{-#")
    blobs = {k: h for k, h in resource_blobs(trailer).items() if h}
    out = {}
    position = 0
    for line in main.splitlines():
        name = parse_op_name(line)
        if name is None or not is_constant_op(name):
            continue
        hexdata = None
        m = _HEX_VALUE_RE.search(line)
        if m:
            hexdata = m.group(1)
        else:
            r = re.search(r"dense_resource<([^>]+)>", line)
            if r:
                hexdata = blobs.get(r.group(1).strip('"'))
        if hexdata:
            out[position] = digest(bytes.fromhex(hexdata))
        position += 1
    return out


def fx_stage_constants(stage: Stage) -> list:
    """Constants of a frontend stage (fx, onnx), recorded at capture with their names and roles."""
    return [{**c, "embedded_bytes": c["nbytes"], "splat": False, "op": None, "index": None, "location": None}
            for c in stage.meta.get("constants", [])]


def mlir_stage_constants(stage: Stage, by_digest: dict) -> list:
    out = []
    candidates = [op for op in stage.ops if is_constant_op(op.name)]
    values = [(op, constant_value(op.text)) for op in candidates]
    digests = {}
    # Only worth printing the full IR when a non-splat constant could be one of the model's weights.
    if by_digest and any(v and not v["splat"] and v["nbytes"] >= 64 for _, v in values):
        digests = payload_digests(stage.full_text())
    for position, (op, value) in enumerate(values):
        if value is None:
            continue
        name, role = by_digest.get(digests.get(position), (None, None))
        resource = value.pop("resource")
        if name is None and resource != "__elided__":
            name = resource  # not a known weight: its resource key is the best name the IR has
        out.append({**value, "name": name, "role": role, "op": op.name, "index": op.index, "location": op.location})
    return out


def weights_by_digest(weight_tensors: dict, min_bytes: int = 0) -> dict:
    """{sha1 of a weight's bytes: (name, role)} for the model's weights of at least `min_bytes` (the first name
    wins when two weights hold the same bytes): how constants are named by content."""
    out = {}
    for name, (role, tensor) in weight_tensors.items():
        if tensor.numel() * tensor.element_size() >= min_bytes:
            out.setdefault(tensor_digest(tensor), (name, role))
    return out


def analyze_constants(bringup, min_bytes: int = DEFAULT_MIN_BYTES):
    """-> (findings, {stage: summary columns})."""
    by_digest = weights_by_digest(bringup.weight_tensors, min_bytes=64)  # smaller ones are scalars, not weights
    weight_bytes = sum(t.numel() * t.element_size() for role, t in bringup.weight_tensors.values()
                       if role in WEIGHT_ROLES)
    findings, columns = [], {}
    for stage in bringup.stages.values():
        if not stage.ok:
            continue
        if stage.name in ("fx", "onnx"):
            consts = fx_stage_constants(stage)
        else:
            consts = mlir_stage_constants(stage, by_digest)
        inlined_weights = {c["name"]: c["nbytes"] for c in consts if c["role"] in WEIGHT_ROLES}
        non_weight = [c for c in consts if c["role"] not in WEIGHT_ROLES and c["nbytes"] >= min_bytes]
        columns[stage.name] = {
            "constants": len(consts),
            "constant_bytes": sum(c["nbytes"] for c in consts),
            "embedded_bytes": sum(c["embedded_bytes"] for c in consts),
            "largest_constant": max((c["nbytes"] for c in consts), default=0),
            "weights_inlined": min(1.0, sum(inlined_weights.values()) / weight_bytes) if weight_bytes else None,
            "weights_inlined_bytes": sum(inlined_weights.values()),
            "non_weight_constants": len(non_weight),
        }
        for c in consts:
            if c["nbytes"] < min_bytes and c["role"] not in WEIGHT_ROLES:
                continue  # small literals (scalars, shapes) are not part of the budget's story
            what = f"{c['role']} {c['name']}" if c["role"] else (
                f"constant {c['name']}" if c["name"] else "constant (not a model weight)")
            splat = f", splat: {human_bytes(c['embedded_bytes'])} in the IR" if c["splat"] else ""
            shape = "x".join(map(str, c["shape"])) or "scalar"
            findings.append(Finding(
                kind="constant", stage=stage.name, op=c["op"], location=c["location"], nbytes=c["nbytes"],
                message=f"{what}: {shape} {c['dtype']}, {human_bytes(c['nbytes'])}{splat}",
                details={"index": c["index"], "name": c["name"], "role": c["role"], "shape": c["shape"],
                         "dtype": c["dtype"], "embedded_bytes": c["embedded_bytes"], "splat": c["splat"]}))
    return findings, columns
