"""Carried-over jobs: a job whose inputs are all unchanged since the last complete run of its kind (or since a later
run that stopped part way and had finished it) is not run again; its row from that run is taken, marked
`carried_over` with the run's id.

A job's fingerprint covers what can change its row: the model and frontend, the job's options, ttbench's own code
(every source file of the package: coarse, never stale), the model's own files for a zoo model, the TTBENCH_*
settings of this process (timeouts, faults planted by tests), and the versions of the packages that shaped the row:
torch and the packages the model is built from, then those of each stage the job reached (STAGE_PACKAGES). A job
that failed in torch-mlir's import is not run again when only the TT plugin moved: the stages after the one it
failed in never ran, so their packages cannot change its row. The stages a job will reach are known only once it
has run, so a job is looked up under one fingerprint per stage it could stop at (`fingerprints`), and its row is
stored under the one of the stages it did reach (`row_fingerprint`)."""
from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from typing import Optional

from .. import models
from ..core import FRONTEND_STAGES, PROGRAM_STAGES, StageName
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


# The packages a stage's result turns on (its own work, and the CPU run that follows it), beyond those every stage
# turns on: ttbench itself, torch, and the packages the model is built from (MODEL_PACKAGES).
STAGE_PACKAGES = {
    StageName.FX: (),
    StageName.ONNX: ("onnx", "onnxscript"),
    StageName.TORCHFX: ("torch-mlir",),
    StageName.STABLEHLO: ("torch-mlir", "jax", "jaxlib"),  # jax runs the StableHLO on the CPU
    StageName.TTIR: ("tt-plugin",),
    StageName.TTNN: ("tt-plugin",),
}
ALWAYS = ("ttbench", "torch")
# A zoo entry's prefix -> the packages that build it: transformers models may use timm backbones and torchvision's
# processors (hf_zoo imports both first), timm imports torchvision. Anything else (the repository's own zoo, whose
# loaders import what they like): all of them.
MODEL_PACKAGES = {"hf": ("transformers", "timm", "torchvision"), "timm": ("timm", "torchvision"),
                  "torchvision": ("torchvision",)}
ANY_MODEL_PACKAGE = ("transformers", "timm", "torchvision")


def _packages(model: str, stages) -> tuple:
    prefix = model.partition("/")[0] if "/" in model else None
    named = list(ALWAYS) + list(MODEL_PACKAGES.get(prefix, ANY_MODEL_PACKAGE))
    for stage in stages:
        named += STAGE_PACKAGES[stage]
    return tuple(dict.fromkeys(named))


def _fingerprint(model: str, frontend: str, options: dict, stages: tuple, installed: dict) -> str:
    settings = {k: v for k, v in os.environ.items() if k.startswith("TTBENCH_") and k not in PLUMBING}
    facts = {"model": model, "frontend": frontend, "options": options, "reached": list(stages),
             "versions": {p: installed.get(p) for p in _packages(model, stages)},
             "code": _code_digest(), "model_files": _model_digest(model), "settings": settings}
    return hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest()


def _route(frontend: str, options: dict) -> tuple:
    """The stages a job with these options can run (without the TT compiler: none of its programs)."""
    return tuple(s for s in FRONTEND_STAGES[frontend] if options.get("tt") or s not in PROGRAM_STAGES)


def fingerprints(model: str, frontend: str, options: dict, installed: Optional[dict] = None) -> list:
    """The fingerprints a stored row of this job may have: one per stage the job could stop at (the row of a job
    that stopped at torchfx was fingerprinted over the packages up to torchfx), from the whole route down.
    `installed`: the package versions (default: this process's, optional.versions)."""
    installed = versions() if installed is None else installed
    order = _route(frontend, options)
    return [_fingerprint(model, frontend, options, order[:n], installed) for n in range(len(order), 0, -1)
            if n == len(order) or not options.get("ops")]


def reached(frontend: str, failed_stage: Optional[str], options: dict) -> tuple:
    """The stages a finished job's row turns on: up to the one it failed in; every stage of its route when it
    failed in none, or in something that is no stage (then a row is never taken for too little), or when the job
    also ran op by op (each op goes through the whole route, whichever stage the model stopped at)."""
    order = _route(frontend, options)
    return order[:order.index(failed_stage) + 1] if failed_stage in order and not options.get("ops") else order


def row_fingerprint(model: str, frontend: str, row: dict, options: dict, installed: Optional[dict] = None) -> str:
    """The fingerprint a finished job's row is stored under: over the packages of the stages it reached."""
    installed = versions() if installed is None else installed
    return _fingerprint(model, frontend, options, reached(frontend, row.get("failed_stage"), options), installed)


def kept_fingerprint(model: str, frontend: str, options: dict, installed: Optional[dict] = None) -> Optional[str]:
    """The fingerprint of a job's stages up to StableHLO, under which they are kept (kept_stages.py) for a rerun
    that resumes at the TT compile; None for a job that cannot resume there: one without TT stages, one that runs
    op by op (each op goes through the whole route) or at another optimization level (compiled twice)."""
    installed = versions() if installed is None else installed
    order = _route(frontend, options)
    if not set(PROGRAM_STAGES) & set(order) or options.get("ops") or options.get("opt_level") is not None:
        return None
    return _fingerprint(model, frontend, options, order[:order.index(StageName.STABLEHLO) + 1], installed)


def lookup(candidates: list, previous: dict):
    """The stored (run id, row) under one of a job's fingerprints, or None."""
    return next((previous[p] for p in candidates if p in previous), None)


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
