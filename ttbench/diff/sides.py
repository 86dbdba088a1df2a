"""One side of a diff: an export folder read into normalised ops per stage (SSA names dropped, locations apart, weight
payloads as hashes of their bytes), its JSON files as data, its weights as digests."""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass

from ..core import BadInput, MLIR_STAGES, SourceLoc
from ..io import folders
from ..io.export import FINDINGS, MANIFEST, stage_file
from ..io.folders import optional_file, read_text
from ..ir.text import parse_ops, resource_blobs


COMPARED_FILES = ("run.json", "op_by_op.json")  # a run's results, compared as numbers

_SSA_RE = re.compile(r"%[\w$.-]+(?:#\d+)?")


_RESOURCE_RE = re.compile(r'dense_resource<((?:[\w.$-]+|"(?:[^"\\]|\\.)*"))>')


@dataclass
class SideOp:
    name: str
    signature: str  # the op with SSA names, location and weight bytes normalised away
    line: str  # source line, "file.py:12", or "" when unknown


@dataclass
class Side:
    path: str
    manifest: dict
    findings: dict
    stages: dict  # stage -> {"ok", "error", "ops": [SideOp], "text": normalised text}
    extra: dict  # run.json / op_by_op.json contents when present


def _normalise(text: str, hashes: dict) -> str:
    text = _RESOURCE_RE.sub(lambda m: f"weights<{hashes.get(m.group(1).strip(chr(34)), m.group(1))}>", text)
    return _SSA_RE.sub("%", text)


def _mlir_side_ops(ir: str, hashes: dict) -> list:
    ops = []
    for op in parse_ops(ir):
        body = op.text
        cut = body.rfind(" loc(")
        if cut > 0:
            body = body[:cut]
        sig = _normalise(body, hashes)
        ops.append(SideOp(op.name, sig, op.location.short if op.location else ""))
    return ops


def _split_source_comment(line: str) -> tuple:
    """(the line without its trailing `    # file.py:12`, "file.py:12" short form or "")."""
    body, sep, comment = line.rpartition("    # ")
    if not sep:
        return line, ""
    file, colon, lineno = comment.rpartition(":")
    if not colon or not file or not lineno.isdigit():
        return line, ""
    return body, SourceLoc(file, int(lineno)).short


_FX_KINDS = ("call_function", "call_method", "call_module")


def _fx_side_ops(text: str) -> list:
    """Ops of an fx.txt (`%name : ... = call_function[target=T](args...)    # file:line`), read with str
    methods: linear in the line's length whatever it holds."""
    ops = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("%") or " : " not in line:
            continue
        body, where = _split_source_comment(line)
        for kind in _FX_KINDS:
            start = body.find(f"= {kind}[target=")
            if start >= 0:
                break
        else:
            continue
        rest = body[start + len(f"= {kind}[target="):]
        target, sep, args = rest.partition("](")
        if not sep or not args.endswith(")"):
            continue
        name = target.replace("torch.ops.", "") if kind == "call_function" else (
            f"Tensor.{target}" if kind == "call_method" else f"module.{target}")
        ops.append(SideOp(name, f"{name}({_SSA_RE.sub('%', args[:-1])})", where))
    return ops


def _onnx_side_ops(text: str) -> list:
    """Ops of an onnx.txt (`%y = Conv[attrs](%x, %w)    # file:line`), read with str methods."""
    ops = []
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        body, where = _split_source_comment(line)
        eq = body.find("= ")
        if eq < 0:
            continue
        rest = body[eq + 2:]
        end = next((i for i, c in enumerate(rest) if c in "[("), -1)
        op_type = rest[:end]
        if end <= 0 or not op_type.replace("_", "").isalnum():
            continue
        ops.append(SideOp(f"onnx.{op_type}", _SSA_RE.sub("%", body), where))
    return ops


def load_side(path: str) -> Side:
    """An export folder as untrusted input: regular files inside it only, JSON of the shapes ttbench writes."""
    if not os.path.isdir(path):
        raise BadInput(f"{path} is not a folder: pass two `ttbench bringup --out` folders or Bringups")
    root = os.path.realpath(path)
    manifest_path = folders.optional_file(root, MANIFEST, "the manifest")
    if manifest_path is None:
        raise BadInput(f"{path} is not an export folder (no {MANIFEST}): write one with `ttbench bringup --out`")
    manifest = folders.read_json(manifest_path, folders.MANIFEST_SCHEMA, MANIFEST)
    folders.check_stage_names(root, manifest["stages"])
    findings_path = folders.optional_file(root, FINDINGS, "the findings")
    findings = folders.read_json(findings_path, folders.FINDINGS_SCHEMA, FINDINGS) if findings_path else {}
    stages = {}
    for name, info in manifest["stages"].items():
        entry = {"ok": bool(info.get("ok")), "error": info.get("error"), "ops": [], "text": ""}
        if entry["ok"]:
            fname = info.get("file") or stage_file(name)
            fpath = folders.inside(root, fname, f"the {name} stage's file")
            text = folders.read_text(fpath)
            weights = folders.optional_file(root, f"{name}.weights.mlir", f"the {name} stage's weights")
            try:
                if name in MLIR_STAGES:
                    entry["ops"] = _mlir_side_ops(text, _weight_hashes(weights))
                elif name == "onnx":
                    entry["ops"] = _onnx_side_ops(text)
                else:
                    entry["ops"] = _fx_side_ops(text)
                entry["text"] = "\n".join(o.signature for o in entry["ops"])
                if not entry["ops"] and text.strip():
                    raise ValueError("no ops found: not the IR ttbench writes")
            except (ValueError, IndexError, KeyError, RecursionError) as exc:  # a file that does not parse: named
                raise BadInput(f"{fpath} does not parse ({type(exc).__name__}: {str(exc)[:120]})") from None
        stages[name] = entry
    schemas = {"run.json": folders.RUN_SCHEMA, "op_by_op.json": folders.OP_BY_OP_SCHEMA}
    extra = {}
    for n in COMPARED_FILES:
        extra_path = folders.optional_file(root, n, n)
        if extra_path:
            extra[n] = folders.read_json(extra_path, schemas[n], n)
    return Side(path=path, manifest=manifest, findings=findings, stages=stages, extra=extra)


def _weight_hashes(path) -> dict:
    if path is None:
        return {}

    return {k: hashlib.sha1(bytes.fromhex(h)).hexdigest()[:12] for k, h in resource_blobs(read_text(path)).items()}


def weight_digests(path: str) -> dict:
    """name -> sha1 of each tensor in an export folder's weights.safetensors ({} when there is none)."""
    fpath = optional_file(os.path.realpath(path), "weights.safetensors", "the weights file")
    if fpath is None:
        return {}
    from safetensors.numpy import load_file

    try:
        return {k: hashlib.sha1(v.tobytes()).hexdigest()[:12] for k, v in load_file(fpath).items()}
    except Exception as exc:  # an unreadable weights file is bad input, named
        raise BadInput(f"{fpath} is not a readable safetensors file ({type(exc).__name__})") from None
