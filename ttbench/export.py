"""The export folder (`b.export(DIR)`, `ttbench bringup --out DIR`): one file per stage plus manifest.json.

MLIR stage files hold the full IR with locations; weight payloads go to `<stage>.weights.mlir` (an MLIR
`dialect_resources` section): `cat stablehlo.mlir stablehlo.weights.mlir` parses as the whole module again.
Writing is atomic: everything goes to a temporary sibling folder that is renamed into place at the end.
"""
from __future__ import annotations

import json
import os
import pathlib
import shutil
import tempfile

from .core import MLIR_STAGES
from .ir.text import BIG_HEX_RE, RESOURCE_ENTRY_RE, split_resources
from .optional import versions
from .stages.tt import FLATBUFFER_FILE

MANIFEST = "manifest.json"
FINDINGS = "findings.json"
REPORT = "report.html"


def externalize_weights(text: str):
    """(IR text with every large literal as a dense_resource, the resources section holding their bytes)."""
    ir, trailer = split_resources(text)
    entries = [(k, f'"0x{h}"') for k, h in RESOURCE_ENTRY_RE.findall(trailer)]
    counter = [0]

    def to_resource(m):
        key = f"ttbench_weight_{counter[0]}"
        counter[0] += 1
        entries.append((key, f'"0x08000000{m.group(1)}"'))  # blob header: 8-byte alignment, then the raw bytes
        return f"dense_resource<{key}>"

    ir = BIG_HEX_RE.sub(to_resource, ir)
    if not entries:
        return ir, ""
    body = ",\n".join(f"      {k}: {v}" for k, v in entries)
    return ir, "{-#\n  dialect_resources: {\n    builtin: {\n" + body + "\n    }\n  }\n#-}\n"


def stage_file(name: str) -> str:
    return f"{name}.mlir" if name in MLIR_STAGES else f"{name}.txt"


def manifest(b) -> dict:
    return {
        "versions": versions(),
        "model": b.model_name,
        "frontend": b.frontend,
        "params": b.params,
        "ok": b.ok,
        "seconds": round(b.seconds, 3),
        "arguments": [{"name": a.name, "role": a.role, "shape": list(a.shape), "dtype": a.dtype} for a in b.arguments],
        "example_inputs": [{"shape": list(x.shape), "dtype": str(x.dtype).replace("torch.", "")}
                           for x in b.example_inputs],
        "stages": {name: _stage_entry(name, s) for name, s in b.stages.items()},
    }


def _stage_entry(name: str, stage) -> dict:
    entry = {**stage.summary(), "file": stage_file(name) if stage.ok else None}
    if "flatbuffer_path" in entry.get("meta", {}):
        # The bringup's copy is temporary; the folder's own is the one to point at.
        entry["meta"] = {**entry["meta"], "flatbuffer_path": FLATBUFFER_FILE}
    return entry


def write_text_atomic(path: str, text: str) -> str:
    """Write `text` to a sibling temporary file and rename it into place: readers never see half a file."""
    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
    return path


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


def write_bringup(b, directory: str, extra_files: dict = None) -> str:
    """Write the export folder for Bringup `b` atomically (plus `extra_files`: name -> text); returns its path."""
    directory = os.path.abspath(directory)
    parent = os.path.dirname(directory)
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=f".{os.path.basename(directory)}.tmp-", dir=parent)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o777 & ~umask)  # mkdtemp makes it private; the folder is the user's like any other
    try:
        for name, stage in b.stages.items():
            if not stage.ok:
                continue
            if name in MLIR_STAGES:
                ir, weights = externalize_weights(stage.full_text())
                _write(os.path.join(tmp, stage_file(name)), ir)
                if weights:
                    _write(os.path.join(tmp, f"{name}.weights.mlir"), weights)
            else:
                _write(os.path.join(tmp, stage_file(name)), stage.text)
            for fname, content in stage.artifacts.items():
                target = os.path.join(tmp, fname)
                if isinstance(content, pathlib.Path):
                    shutil.copyfile(content, target)
                else:
                    _write(target, content)
        weights = b.weights()
        if weights:
            from safetensors.torch import save_file

            save_file({k: v.detach().contiguous() for k, v in weights.items()}, os.path.join(tmp, "weights.safetensors"))
        _write(os.path.join(tmp, FINDINGS), b.findings.to_json() + "\n")
        b.save_html(os.path.join(tmp, REPORT))
        for fname, text in (extra_files or {}).items():
            _write(os.path.join(tmp, fname), text)
        _write(os.path.join(tmp, MANIFEST), json.dumps(manifest(b), indent=2, default=str) + "\n")
        _replace_dir(tmp, directory)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return directory


def _replace_dir(src: str, dst: str) -> None:
    if os.path.exists(dst):
        old = tempfile.mkdtemp(prefix=f".{os.path.basename(dst)}.old-", dir=os.path.dirname(dst))
        os.rename(dst, os.path.join(old, "d"))
        os.rename(src, dst)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.rename(src, dst)


def stage_table(b) -> str:
    rows = [("stage", "ok", "ops", "seconds", "error")]
    for name, s in b.stages.items():
        rows.append((name, "yes" if s.ok else "NO", str(len(s.ops)), f"{s.seconds:.2f}", (s.error or "")[:160]))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return "\n".join("  ".join(r[i].ljust(widths[i]) for i in range(4)) + "  " + r[4] for r in rows)
