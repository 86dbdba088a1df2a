"""Carried-over jobs: a job whose inputs are all unchanged since the last complete run of its kind (or since a later
run that stopped part way and had finished it) is not run again; its row from that run is taken, marked
`carried_over` with the run's id.

A job's fingerprint covers what can change its row: the model and frontend, the job's options, the versions of
every package that shapes the result (optional.versions: torch, torch-mlir, transformers, timm, the TT
plugin, ...), ttbench's own code (every source file of the package: coarse, never stale), the model's own files
for a zoo model, and the TTBENCH_* settings of this process (timeouts, faults planted by tests)."""
from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from typing import Optional

from .. import models
from ..optional import versions
from ..proc.children import DEATHSIG_ENV, DISPOSABLE_JOB_ENV, PARENT_ENV
from . import results_db

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@lru_cache(maxsize=1)
def _code_digest() -> str:
    digest = hashlib.sha256()
    for folder, dirs, files in os.walk(PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, PACKAGE).encode() + b"\0")
                with open(path, "rb") as f:
                    digest.update(f.read())
    return digest.hexdigest()


def _model_digest(model: str) -> str:
    """A zoo model's own files (loader, implementation); "" for one built from a package (its version counts)."""
    folder = os.path.join(models.ZOO_DIR, model.partition(":")[0])
    if "/" in model or not os.path.isdir(folder):
        return ""
    digest = hashlib.sha256()
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".py") and os.path.isfile(path):
            with open(path, "rb") as f:
                digest.update(name.encode() + b"\0" + f.read())
    return digest.hexdigest()


# Process plumbing, not settings: which process started this one, and whether it is a job
PLUMBING = (PARENT_ENV, DEATHSIG_ENV, DISPOSABLE_JOB_ENV)


def fingerprint(model: str, frontend: str, options: dict) -> str:
    settings = {k: v for k, v in os.environ.items() if k.startswith("TTBENCH_") and k not in PLUMBING}
    facts = {"model": model, "frontend": frontend, "options": options, "versions": versions(),
             "code": _code_digest(), "model_files": _model_digest(model), "settings": settings}
    return hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest()


def previous_rows(db, kind: str) -> dict:
    """{fingerprint: (run id, row)} to carry over: the last complete run of `kind`, and the jobs that runs stopped
    part way since then finished (a killed or interrupted run resumes where it stopped; the newest row wins)."""
    last = max(results_db.run_ids(db, kind, complete_only=True), default=None)
    taken: dict = {}
    for run_id in results_db.run_ids(db, kind):
        if last is None or run_id >= last:
            for row in results_db.job_rows(db, run_id):
                if row.get("fingerprint"):
                    taken[row["fingerprint"]] = (run_id, row)
    return taken


def carried(row: dict, run_id: Optional[int]) -> dict:
    """A stored row taken for this run: said where it came from, nothing of its timing re-counted."""
    row = dict(row)
    row["carried_over"] = row.get("carried_over") or run_id
    return row
