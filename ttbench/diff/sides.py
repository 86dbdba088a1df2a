"""One side of a diff: an export folder read into normalised ops per stage (SSA names dropped, locations apart, weight
payloads as hashes of their bytes), its JSON files as data, its weights as digests."""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from ..core import MLIR_STAGES, BadInput, SourceLoc, StageName
from ..io import folders
from ..io.export import FINDINGS, MANIFEST, stage_file
from ..io.folders import optional_file, read_text
from ..ir.dialects import ConstantFacts
from ..ir.text import aliases, constant_payloads, expand_aliases, expansion_budget, parse_ops, resource_blobs
from ..ir.walk import np_dtype


COMPARED_FILES = ("run.json", "op_by_op.json")  # a run's results, compared as numbers

_SSA_RE = re.compile(r"%[\w$.-]+(?:#\d+)?")


_RESOURCE_RE = re.compile(r'dense_resource<((?:[\w.$-]+|"(?:[^"\\]|\\.)*"))>')


@dataclass
class SideOp:
    name: str
    signature: str  # the op with SSA names, location and weight bytes normalised away
    line: str  # source line, "file.py:12", or "" when unknown
    index: int = -1  # position in its stage, as the bringup's walk numbers it (findings refer to ops by it)
    constant: Optional[ConstantFacts] = None  # a tensor constant's shape and element type


@dataclass
class Side:
    path: str
    manifest: dict
    findings: dict
    stages: dict  # stage -> {"ok", "error", "ops": [SideOp], "text": normalised text, "files": (IR, weights)}
    extra: dict  # run.json / op_by_op.json contents when present
    # stage -> {op index: name or ""} of the constants its findings list (the stage's `constants` count);
    # None where the folder has no findings, so which constants are small is unknown.
    listed_constants: Optional[dict] = None
    _payloads: dict = field(default_factory=dict)  # stage -> {op index: raw bytes}, read when first asked

    def constant_values(self, stage: str, op: SideOp) -> Optional[np.ndarray]:
        """The values of a constant op of `stage` (None where the folder does not hold them in full)."""
        facts = op.constant
        if facts is None:
            return None
        try:
            dtype = np_dtype(facts.dtype)
        except KeyError:
            return None
        numel = int(np.prod(facts.shape)) if facts.shape else 1
        literal = _LITERAL_RE.search(op.signature)
        if literal and not literal.group(1).startswith('"'):  # printed values: dense<0.5>, dense<[1, 2]>
            text = literal.group(1).strip()
            try:  # MLIR's number and list forms are JSON's (complex and hex floats are not: unknown)
                values = np.asarray(json.loads(text), dtype=np.float64)
            except (ValueError, TypeError):
                return None
            if values.size == 1 and numel != 1:  # a splat: one value for every element
                values = np.full(numel, values.reshape(-1)[0])
            return values.reshape(facts.shape) if values.size == numel else None
        if stage not in self._payloads:
            text_path, weights_path = self.stages[stage]["files"]
            full = read_text(text_path) + ("\n" + read_text(weights_path) if weights_path else "")
            self._payloads[stage] = constant_payloads(full)
        raw = self._payloads[stage].get(op.index)
        if raw is None or len(raw) % dtype.itemsize:
            return None
        values = np.frombuffer(raw, dtype=dtype)
        if values.size == 1 and numel != 1:
            values = np.full(numel, values[0])
        return values.reshape(facts.shape).astype(np.float64) if values.size == numel else None


def _normalise(text: str, hashes: dict, alias_table: dict) -> str:
    text = _RESOURCE_RE.sub(lambda m: f"weights<{hashes.get(m.group(1).strip(chr(34)), m.group(1))}>", text)
    return _SSA_RE.sub("%", expand_aliases(text, alias_table))


_LITERAL_RE = re.compile(r"dense<(.*?)>\s*:")


def _mlir_side_ops(ir: str, hashes: dict) -> list:
    ops = []
    alias_table = aliases(ir)
    budget = expansion_budget(ir)
    for op in parse_ops(ir):
        body = op.text
        cut = body.rfind(" loc(")
        if cut > 0:
            body = body[:cut]
        sig = _normalise(body, hashes, alias_table)
        budget -= len(sig)
        if budget < 0:
            raise ValueError("its ops, aliases read through, are many times the size of the file")
        ops.append(SideOp(op.name, sig, op.location.short if op.location else "", op.index,
                          op.attrs.get("constant")))
    return ops


def _listed_constants(findings: dict) -> Optional[dict]:
    """stage -> {op index: name or ""} of the constant findings of a findings.json (untrusted: shapes checked)."""
    entries = findings.get("findings")
    if not isinstance(entries, list):
        return None
    out: dict = {}
    for f in entries:
        details = f.get("details") if isinstance(f, dict) else None
        if f.get("kind") != "constant" or not isinstance(details, dict) or not isinstance(details.get("index"), int):
            continue
        name = details.get("name")
        out.setdefault(f.get("stage"), {})[details["index"]] = name if isinstance(name, str) else ""
    return out


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
            entry["files"] = (fpath, weights)
            try:
                if name in MLIR_STAGES:
                    entry["ops"] = _mlir_side_ops(text, _weight_hashes(weights))
                elif name == StageName.ONNX:
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
    return Side(path=path, manifest=manifest, findings=findings, stages=stages, extra=extra,
                listed_constants=_listed_constants(findings))


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
