"""One status per tracker job, as Tenstorrent's own trackers report theirs, and the checked-in table of expected
statuses that gates a run: a job worse than expected fails the run; one better is said, so the table is tightened.

The statuses, worst first (a job that moves right got better):
  ttbench error        ttbench's own bug (an internal error): never said as a compiler's failure
  frontend failure     the model did not build, run eagerly, or trace (torch.export, the ONNX exporter, dynamo)
  torch-mlir failure   torch-mlir's import or lowering failed, or its StableHLO does not match PyTorch on the CPU
  TT compiler failure  the Tenstorrent compiler did not make TTIR or TTNN
  incorrect result     a TT program runs in ttbench's interpreter and does not match PyTorch
  interpreter refusal  a TT program was not run: the interpreter refused it (what is missing is the detail)
  passed               every stage the job took was made and every program it ran matches PyTorch
"""
from __future__ import annotations

import json
import os
import re
from typing import Optional

from ...core import FRONTEND_STAGES, GRAPH_STAGES, INTERNAL_ERROR, PROGRAM_STAGES, TORCH_MLIR_STAGES, BadInput
from ...io import folders
from ...io.atomic import write_text_atomic

TTBENCH_ERROR, FRONTEND, TORCH_MLIR, TT_COMPILER = ("ttbench error", "frontend failure", "torch-mlir failure",
                                                    "TT compiler failure")
INCORRECT, REFUSED, PASSED = "incorrect result", "interpreter refusal", "passed"
STATUSES = (TTBENCH_ERROR, FRONTEND, TORCH_MLIR, TT_COMPILER, INCORRECT, REFUSED, PASSED)  # worst first
MODES = {True: "with TT stages", False: "compile-only to StableHLO (--no-tt)"}
EXPECTED = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))), "models", "track_expected.json")


def job_status(row: dict) -> tuple:
    """(status, detail) of one tracker row (a sweep job's row, see sweep.run_job)."""
    error = row.get("error") or ""
    if INTERNAL_ERROR in error:
        return TTBENCH_ERROR, error[:300]
    ran = _died_running(row)
    if ran in PROGRAM_STAGES:  # the compiler made the program: what died is ttbench's interpreter running it
        return TTBENCH_ERROR, (f"the job died while ttbench's interpreter ran the {ran.upper()} program (the "
                               f"Tenstorrent compile had succeeded): {error[:200]}")
    if ran is not None:  # torch-mlir's StableHLO, run on the CPU
        return TORCH_MLIR, f"StableHLO on the CPU: {error[:280]}"
    stage = _failed_stage(row)
    if stage is not None:
        if stage in GRAPH_STAGES:
            return FRONTEND, error[:300]
        if stage in TORCH_MLIR_STAGES:
            return TORCH_MLIR, error[:300]
        return TT_COMPILER, error[:300]
    if row.get("run_ok") is False:
        return TORCH_MLIR, f"StableHLO on the CPU: {((row.get('stage_notes') or {}).get('stablehlo') or error)[:280]}"
    if row.get("incorrect"):
        wrong = row["incorrect"]
        return INCORRECT, f"{wrong['stage']} pcc {_pcc(wrong.get('pcc'))}: {wrong.get('verdict', '')[:240]}"
    pccs, notes = row.get("stage_pcc"), row.get("stage_notes") or {}
    if pccs is not None:  # the job ran its programs: one made and not measured was refused
        for stage in PROGRAM_STAGES:
            if (row.get("ops") or {}).get(stage) and pccs.get(stage) is None:
                return REFUSED, f"{stage}: {(notes.get(stage) or 'not run')[:280]}"
    return PASSED, ""


_DIED_RUNNING = re.compile(r"^job [^:]* in run (\w+):")  # a dead job's error, as sweep._child says it


def _died_running(row: dict) -> Optional[str]:
    """The stage whose program was running on the CPU (a "run STAGE" step) when the job died, else None. Rows stored
    before `died_in` was kept say it in their error alone."""
    if row.get("failed_stage") != "?":
        return None
    died = row.get("died_in")
    if died is None:
        found = _DIED_RUNNING.match(row.get("error") or "")
        return found.group(1) if found else None
    return died[len("run "):] if died.startswith("run ") else None


def _failed_stage(row: dict) -> Optional[str]:
    """The stage a failed job stopped in; a job that died without saying ("?") stopped in the stage after the
    furthest one it made (the first of its frontend's when it made none)."""
    failed = row.get("failed_stage")
    if failed is None:
        return None
    if failed != "?":
        return failed
    order = FRONTEND_STAGES.get(row.get("frontend"), FRONTEND_STAGES["export"])
    furthest = row.get("furthest")
    if furthest not in order:
        return order[0]
    return order[min(order.index(furthest) + 1, len(order) - 1)]


def _pcc(value) -> str:
    return "?" if value is None else f"{value:.4f}"


def rank(status: str) -> int:
    return STATUSES.index(status)


def job_key(row: dict) -> str:
    return f"{row['model']}/{row['frontend']}"


def load_expected(path: str, tt: bool = True) -> dict:
    """{job: status} of the expected-status table for runs with (`tt`) or without the Tenstorrent stages (a
    compile-only run's statuses are not a full run's); an absent file or mode is an empty table."""
    data = folders.read_table(path, "fix it or write it again with --update-expected")
    if data is None:
        return {}
    tables = [data.get(mode) for mode in MODES.values()] if isinstance(data, dict) else [None]
    if not all(isinstance(t, (dict, type(None))) for t in tables) or any(
            v not in STATUSES for t in tables if t for v in t.values()):
        raise BadInput(f"{path} is not an expected-status table ({{MODE: {{JOB: STATUS}}}}, modes among "
                       f"{', '.join(MODES.values())}, statuses among {', '.join(STATUSES)}): write it again with "
                       "--update-expected")
    return dict(data.get(MODES[tt]) or {})


def against_expected(rows: list, expected: dict) -> dict:
    """{"worse": [(job, expected, now)], "better": [...], "new": [(job, now)]}: each row against its expected
    status (rows the table does not list are new; jobs of the table this run did not take are not judged)."""
    out: dict = {"worse": [], "better": [], "new": []}
    for row in rows:
        job, now = job_key(row), row["track_status"]
        was = expected.get(job)
        if was is None:
            out["new"].append((job, now))
        elif rank(now) < rank(was):
            out["worse"].append((job, was, now))
        elif rank(now) > rank(was):
            out["better"].append((job, was, now))
    return out


def expected_text(judged: dict, path: str) -> str:
    """What the gate found, for the terminal and the page."""
    lines = [f"{len(judged['worse'])} jobs worse than {os.path.basename(path)} expects, {len(judged['better'])} "
             f"better, {len(judged['new'])} not in it"]
    lines += [f"  worse: {job}: expected {was}, now {now}" for job, was, now in judged["worse"]]
    lines += [f"  better: {job}: expected {was}, now {now} (tighten the table: --update-expected)"
              for job, was, now in judged["better"]]
    return "\n".join(lines)


def write_expected(rows: list, path: str, tt: bool = True) -> str:
    """The table with this run's statuses (jobs this run did not take, and the other mode, kept as they were)."""
    data = {"_about": "the tracker's expected status per job (ttbench/fleet/track/statuses.py), for full runs and "
                      "compile-only ones (--no-tt); `ttbench track` fails when a job is worse, and says which are "
                      "better; `--update-expected` rewrites it"}
    for mode in (True, False):
        table = load_expected(path, mode)
        if mode == tt:
            table.update({job_key(r): r["track_status"] for r in rows})
        if table:
            data[MODES[mode]] = dict(sorted(table.items()))
    return write_text_atomic(path, json.dumps(data, indent=1) + "\n")
