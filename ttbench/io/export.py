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
from typing import Callable, Optional

from ..core import BringupRecord, BadInput, MLIR_STAGES, view_method
from ..ir.text import BIG_HEX_RE, RESOURCE_ENTRY_RE, split_resources
from ..optional import versions
from ..proc.scratch import MARKER, remove_orphans, temp_dir
from ..stages.tt import FLATBUFFER_FILE
from .atomic import no_space, umask

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


def manifest(b: BringupRecord) -> dict:
    return {
        "versions": versions(),
        "model": b.model_name,
        "frontend": b.frontend,
        "params": b.params,
        "ok": b.ok,
        "seconds": round(b.seconds, 3),
        "arguments": [{"name": a.name, "role": a.role, "shape": list(a.shape), "dtype": a.dtype,
                       **({"values": "none (meta device): not in weights.safetensors"} if v.is_meta else {})}
                      for a, v in zip(b.arguments, b.argument_values)],
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


def _write(path: str, content) -> None:
    with open(path, "wb" if isinstance(content, bytes) else "w") as f:
        f.write(content)


def is_export_folder(path: str) -> bool:
    """Whether `path` is a folder ttbench wrote: its manifest.json (a regular file) says so."""
    manifest_path = os.path.join(path, MANIFEST)
    if not os.path.isfile(manifest_path) or os.path.islink(manifest_path):
        return False
    try:
        with open(manifest_path) as f:
            data = json.load(f)
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and isinstance(data.get("stages"), dict) and \
        isinstance(data.get("versions"), dict) and "ttbench" in data["versions"]


def check_export_target(directory: str) -> str:
    """Where an export may go, checked before any work: a new path, an empty folder, or a ttbench export folder
    (which is replaced). Anything else would lose the user's files: BadInput, nothing touched. -> absolute path"""
    if not isinstance(directory, (str, os.PathLike)) or not os.fspath(directory).strip():
        raise BadInput(f"the export folder must be a path, got {directory!r}")
    given = os.fspath(directory)
    path = os.path.abspath(given)
    if os.path.islink(given.rstrip(os.sep) or given):
        raise BadInput(f"{given} is a symlink: export to a real folder")
    if os.path.lexists(path):
        if not os.path.isdir(path):
            raise BadInput(f"{given} exists and is not a folder: choose a new path for the export")
        cwd = os.path.abspath(os.getcwd())
        if cwd == path or cwd.startswith(path.rstrip(os.sep) + os.sep):
            raise BadInput(f"{given} is the current folder or holds it: choose a new path for the export")
        if os.listdir(path) and not is_export_folder(path):
            raise BadInput(f"{given} is a folder with files and not a ttbench export folder (no ttbench "
                           f"{MANIFEST}): ttbench replaces only its own folders; choose a new path")
    parent = os.path.dirname(path)
    existing = parent
    while not os.path.isdir(existing):
        existing = os.path.dirname(existing)
    if not os.access(existing, os.W_OK | os.X_OK):
        raise BadInput(f"cannot write into {existing}: choose an --out folder you can write")
    return path


def write_bringup(b: BringupRecord, directory: str, weight_tensors: dict, findings_json: str,
                  write_report: Callable[[str], object], extra_files: Optional[dict] = None) -> str:
    """Write the export folder for bringup `b` atomically: its stages, `weight_tensors` (name -> tensor), the
    findings, report.html (`write_report(path)` writes it) and `extra_files` (name -> text or bytes); returns its
    path. Only a new path, an empty folder or an earlier ttbench export folder is written (check_export_target)."""
    directory = check_export_target(directory)
    parent = os.path.dirname(directory)
    os.makedirs(parent, exist_ok=True)
    name = os.path.basename(directory)
    for kind in ("tmp", "old"):  # what an interrupted export to the same place left behind
        remove_orphans(f".{name}.{kind}-", parent)
    tmp = temp_dir(f".{name}.tmp-", parent)
    os.chmod(tmp, 0o777 & ~umask())  # made private; the folder is the user's like any other
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
        with_bytes = {k: v for k, v in weight_tensors.items() if not v.is_meta}  # a meta-device model's have none
        if with_bytes:
            from safetensors.torch import save_file

            save_file(_unshared(with_bytes), os.path.join(tmp, "weights.safetensors"))
        _write(os.path.join(tmp, FINDINGS), findings_json + "\n")
        write_report(os.path.join(tmp, REPORT))
        for fname, text in (extra_files or {}).items():  # names may hold one folder: explorer/ttir.json
            os.makedirs(os.path.dirname(os.path.join(tmp, fname)), exist_ok=True)
            _write(os.path.join(tmp, fname), text)
        _write(os.path.join(tmp, MANIFEST), json.dumps(manifest(b), indent=2, default=str) + "\n")
        os.unlink(os.path.join(tmp, MARKER))  # about to become the user's folder
        _replace_dir(tmp, directory)
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        full = no_space(exc, directory)
        if full is not None:  # the folder that was there is untouched: it is replaced only at the very end
            raise full from None
        raise
    return directory


def _unshared(weights: dict) -> dict:
    """Tensors safetensors will write: contiguous, and a tensor whose memory another name already uses (tied
    weights: an LM head sharing the embedding) copied, since safetensors refuses shared memory."""
    out, seen = {}, set()
    for name, value in weights.items():
        value = value.detach().contiguous()
        storage = value.untyped_storage().data_ptr()
        out[name] = value.clone() if storage in seen else value
        seen.add(storage)
    return out


def _replace_dir(src: str, dst: str) -> None:
    if os.path.exists(dst):
        old = temp_dir(f".{os.path.basename(dst)}.old-", os.path.dirname(dst))
        os.rename(dst, os.path.join(old, "d"))
        os.rename(src, dst)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.rename(src, dst)


TABLE_ERROR_CHARS = 200


def clipped_error(error: str, limit: int = TABLE_ERROR_CHARS) -> str:
    """An error's first line for a table: cut at a space (never inside a location or a name), and saying how much
    more there is and where."""
    text = (error or "").strip()
    first = text.splitlines()[0] if text else ""
    if len(first) > limit:
        cut = first.rfind(" ", 0, limit)
        first = first[:cut if cut > limit // 2 else limit]
    rest = len(text) - len(first)
    return f"{first} … (+{rest} chars: the stage's .error)" if rest > 0 else first


class StageTable(str):
    """The per-stage table: text where a string is wanted (print, an assertion's message), an HTML table in a
    notebook. `rows` holds its rows under `STAGE_TABLE_COLUMNS`."""

    rows: tuple

    def __new__(cls, rows) -> "StageTable":
        rows = tuple(tuple(r) for r in rows)
        texts = [STAGE_TABLE_COLUMNS] + [r[:4] + (clipped_error(r[4]),) for r in rows]
        widths = [max(len(r[i]) for r in texts) for i in range(4)]
        table = super().__new__(cls, "\n".join("  ".join(r[i].ljust(widths[i]) for i in range(4)) + "  " + r[4]
                                               for r in texts))
        table.rows = rows
        return table

    _repr_html_ = view_method("StageTable._repr_html_", "The per-stage table as HTML, each error's first line.")


STAGE_TABLE_COLUMNS = ("stage", "ok", "ops", "seconds", "error")


def stage_table(b: BringupRecord) -> StageTable:
    return StageTable((name, "yes" if s.ok else "NO", str(len(s.ops)), seconds_cell(s), s.error or "")
                      for name, s in b.stages.items())


def seconds_cell(stage) -> str:
    """A stage's own seconds, and apart from them any wait for another process's Tenstorrent compile."""
    waited = stage.meta.get("lock_wait_seconds")
    return f"{stage.seconds:.2f}" + (f" (+{waited:.1f} waiting for another compile)" if waited else "")
