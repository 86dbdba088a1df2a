"""The constant budget: every tensor embedded in a stage, its size, and which model weight it is.

A constant is named by content: the bytes embedded in the IR are hashed and matched against the model's
parameters, buffers and lifted constants, so a weight keeps its name through every stage however the
compiler renames its resource key.
"""
from __future__ import annotations

import hashlib

import numpy as np

from ..core import FindingKind, Stage
from ..ir.text import constant_payloads as payloads_of_text
from ..ir.walk import constant_arrays
from ..records.findings import Finding, human_bytes

DEFAULT_MIN_BYTES = 1024
WEIGHT_ROLES = ("parameter", "buffer")

def digest(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


def tensor_digest(tensor) -> str:
    return digest(tensor.detach().contiguous().cpu().numpy().tobytes())


def fx_stage_constants(stage: Stage) -> list:
    """Constants of a frontend stage (fx, onnx), recorded at capture with their names and roles."""
    return [{**c, "embedded_bytes": c["nbytes"], "splat": False, "op": None, "index": None, "location": None}
            for c in stage.meta.get("constants", [])]


def constant_payloads(stage: Stage) -> dict:
    """op index -> raw bytes of each constant of an MLIR stage: read from the live module (bit for bit) where the
    stage holds one, from the printed IR for the Tenstorrent stages."""
    if stage.module is not None:
        return {i: np.ascontiguousarray(a).tobytes() for i, a in constant_arrays(stage.module).items()}

    return payloads_of_text(stage.full_text())


def mlir_stage_constants(stage: Stage, by_digest: dict) -> list:
    out = []
    facts = [(op, op.attrs["constant"]) for op in stage.ops if "constant" in op.attrs]
    digests = {}
    # Only worth reading the payloads when a non-splat constant could be one of the model's weights.
    if by_digest and any(not v.splat and v.nbytes >= 64 for _, v in facts):
        digests = {i: digest(data) for i, data in constant_payloads(stage).items()}
    for op, value in facts:
        name, role = by_digest.get(digests.get(op.index), (None, None))
        if name is None and value.resource:
            name = value.resource  # not a known weight: its resource key is the best name the IR has
        out.append({"shape": value.shape, "dtype": value.dtype, "nbytes": value.nbytes,
                    "embedded_bytes": value.embedded_bytes, "splat": value.splat, "name": name, "role": role,
                    "op": op.name, "index": op.index, "location": op.location})
    return out


def weights_by_digest(weight_tensors: dict, min_bytes: int = 0) -> dict:
    """{sha1 of a weight's bytes: (name, role)} for the model's weights of at least `min_bytes` (the first name
    wins when two weights hold the same bytes): how constants are named by content."""
    out: dict = {}
    for name, (role, tensor) in weight_tensors.items():
        if tensor.is_meta:  # no bytes (a model built on the meta device): no constant can be this weight
            continue
        if tensor.numel() * tensor.element_size() >= min_bytes:
            out.setdefault(tensor_digest(tensor), (name, role))
    return out


def _listed(constant: dict, min_bytes: int) -> bool:
    """A weight always; anything else from `min_bytes` up (smaller literals, scalars and shapes, are only counted)."""
    return constant["role"] in WEIGHT_ROLES or constant["nbytes"] >= min_bytes


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
        listed = [c for c in consts if _listed(c, min_bytes)]
        non_weight = [c for c in listed if c["role"] not in WEIGHT_ROLES]
        # One count per stage: `constants` is what the findings list and the view count, so the three agree.
        columns[stage.name] = {
            "constants": len(listed),
            "small_constants": len(consts) - len(listed),
            "constant_bytes": sum(c["nbytes"] for c in consts),
            "embedded_bytes": sum(c["embedded_bytes"] for c in consts),
            "largest_constant": max((c["nbytes"] for c in consts), default=0),
            "weights_inlined": min(1.0, sum(inlined_weights.values()) / weight_bytes) if weight_bytes else None,
            "weights_inlined_bytes": sum(inlined_weights.values()),
            "non_weight_constants": len(non_weight),
        }
        for c in listed:
            what = f"{c['role']} {c['name']}" if c["role"] else (
                f"constant {c['name']}" if c["name"] else "constant (not a model weight)")
            size = (f"splat: {human_bytes(c['embedded_bytes'])} in the IR, {human_bytes(c['nbytes'])} on the device"
                    if c["splat"] else f"{human_bytes(c['nbytes'])} in the IR and on the device")
            shape = "x".join(map(str, c["shape"])) or "scalar"
            findings.append(Finding(
                kind=FindingKind.CONSTANT, stage=stage.name, op=c["op"], location=c["location"], nbytes=c["nbytes"],
                message=f"{what}: {shape} {c['dtype']}, {size}",
                details={"index": c["index"], "name": c["name"], "role": c["role"], "shape": c["shape"],
                         "dtype": c["dtype"], "embedded_bytes": c["embedded_bytes"], "splat": c["splat"]}))
    return findings, columns
