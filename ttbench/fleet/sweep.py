"""`ttbench sweep`: every zoo model through every frontend, in parallel worker processes, as one status table.

Each (model, frontend) job is a child process (`python -m ttbench.fleet.sweep job ...`), so a native crash or a
hang is a row of the table, not the end of the sweep. Known failures live in one list, models/known_failures.json;
the sweep marks them, and says when one starts passing (delete it from the list then).
"""
from __future__ import annotations

import json
import os
from contextlib import nullcontext
import sys
import threading
import time
from typing import Optional

from .. import models
from ..core import (FRONTEND_STAGES, FRONTENDS, INTERNAL_ERROR, PCC_STAGES, PROGRAM_STAGES, REPORT_BUGS, STAGES,
                    BadInput, ModelFailed, StageName, human_bytes)
from ..io import folders
from ..io.atomic import write_text_atomic
from ..io.markdown import md_cell
from ..optional import versions
from ..proc import zygote
from ..proc.children import DISPOSABLE_JOB_ENV, in_disposable_job, run_once, watch_parent
from ..proc.client import describe_exit
from ..proc.scratch import temp_folder
from ..render.tables import html_table
from ..run.devices import device
from ..tt import compile_service, plugin as tt_plugin
from . import carry_over as carry, executors, kept_stages, op_support, results_db
from .op_support import job_ops

KNOWN_FAILURES = os.path.join(models.ZOO_DIR, "known_failures.json")
DID_NOT_RUN = "the model did not run on its example inputs"  # a job's row when the model raises on its own inputs
JOB_TIMEOUT_S = 1200


def known_failures(path: str = KNOWN_FAILURES) -> dict:
    """{"model/frontend": {"stage", "reason"}} from the list (an absent file is an empty list)."""
    data = folders.read_table(path, "fix it") or {}
    return {k: v for k, v in data.items() if not k.startswith("_")}


def run_job(model: str, frontend: str, tt: bool, run: bool, ops: bool = False, programs: bool = False,
            opt_level: Optional[int] = None, on_stage=None, kept: Optional[str] = None) -> dict:
    """One bringup (+ CPU run, + op by op through the TT compiler or, without it, on the CPU) -> its row (in the
    child process). `programs`: the TTIR and TTNN programs are run too, in ttbench's interpreter, each with its PCC
    against the golden in row["stage_pcc"] (the tracker's PCC per stage). `opt_level`: the model is also compiled
    at that optimization level, row["level"] says how (level_row). `on_stage(name)`: called as each stage starts
    (the job's marker: a job that dies says the stage it reached). `kept`: the folder of this job's stages up to
    StableHLO (kept_stages.py): when they are kept there, the job resumes at the TT compile from them; when not,
    they are kept there once the job has run."""
    from ..pipeline import bringup, is_internal_error  # lazy: imports torch (~2.5 s)
    from ..stages.fx import check_inputs, on_meta  # lazy: imports torch (~2.5 s)

    t0 = time.perf_counter()
    first = FRONTEND_STAGES[frontend][0]
    not_resumed = None
    if kept_stages.complete(kept):
        try:
            return _resumed_job(kept_stages.load(kept), programs, on_stage, t0)
        except kept_stages.Unreadable as exc:  # dropped: the job runs whole, and keeps its stages anew
            not_resumed = str(exc)

    def not_started(**facts) -> dict:  # a row that never reached the frontend's first stage's work
        return {"model": model, "frontend": frontend, "params": "args", "furthest": None, "failed_stage": first,
                "pcc": None, "run_ok": None, "seconds": round(time.perf_counter() - t0, 1), **facts}

    try:
        m, x = models.load(model)
    except Exception as exc:  # the model itself did not build: its frontend's first stage did not start
        if on_stage:
            on_stage(first)
        why = "internal error in ttbench while building the model" if is_internal_error(exc) else \
            "the model did not build"
        return not_started(error=f"{first}: {why}: {type(exc).__name__}: {str(exc).strip()[:300]}")
    meta = on_meta(m)
    if meta and frontend != "export":  # the other frontends run the model, and it has no numbers
        return not_started(failed_stage=None, error=None,
                           not_applicable="built on the meta device: only torch.export traces it")
    try:
        b = bringup(m, x, frontend=frontend, tt=tt, name=model, progress=on_stage or False)
    except BadInput as exc:  # the model refused its own inputs (the eager check): the frontend's failure, a row
        return not_started(error=f"{first}: {DID_NOT_RUN}: {str(exc).strip()[:400]}")
    summary = {r["stage"]: r for r in b.findings.summary().rows}
    hlo = summary.get("stablehlo", {})
    row = {"model": model, "frontend": frontend, "params": b.params, **_stage_facts(_stage_rows(b)),
           "embedded_bytes": hlo.get("embedded_bytes"), "constant_bytes": hlo.get("constant_bytes"),
           "weights_inlined": hlo.get("weights_inlined"),
           "coverage": hlo.get("coverage"), "pcc": None, "run_ok": None}
    mark = on_stage or (lambda name: None)
    result = None
    if run and not meta and b.stages.get(StageName.STABLEHLO) is not None and b.stages[StageName.STABLEHLO].ok:
        mark("run stablehlo")
        result = b.run("stablehlo", device="cpu")
    # In a job the export did not run the model eagerly first (fx.capture_export): unless a CPU run that passed
    # just did (its golden), the check runs now, so a model that cannot run on its own inputs is the same row as
    # where the check runs up front.
    if frontend == "export" and in_disposable_job() and not meta and not (result is not None and result.ok):
        try:
            check_inputs(m, x)
        except BadInput as exc:
            return not_started(error=f"{first}: {DID_NOT_RUN}: {str(exc).strip()[:400]}")
    if result is not None:
        row["pcc"], row["run_ok"] = result.pcc, result.ok
        if not result.ok and row["error"] is None:
            row["error"] = f"cpu run: {result.message}"
        row["stage_pcc"], row["stage_notes"] = {"stablehlo": result.pcc}, {}
        if not result.ok:
            row["stage_notes"]["stablehlo"] = result.message[:300]
        if programs:  # against the golden the CPU run just made: the model is not run eagerly twice more
            _run_programs(b, row, mark, expected=result.golden_arrays or None)
        if kept and result.golden_arrays:
            _keep(kept, b, row, result)
    if ops:
        row["op_by_op"] = _job_op_by_op(b, tt)
    if opt_level is not None and tt and b.stages.get(StageName.TTNN) is not None and b.stages[StageName.TTNN].ok:
        row["level"] = level_row(bringup(m, x, frontend=frontend, tt=True, name=model, opt_level=opt_level,
                                         progress=False), run=run and programs and not meta)
    if not_resumed:
        row["not_resumed"] = not_resumed
    row["seconds"] = round(time.perf_counter() - t0, 1)
    return row


def _stage_rows(b) -> dict:
    """A bringup's stages as the row has them, in order."""
    return {n: {"ok": s.ok, "ops": len(s.ops) if s.ok else None, "seconds": round(s.seconds, 3), "error": s.error}
            for n, s in b.stages.items()}


def _stage_facts(stages: dict) -> dict:
    """The row's facts of its stages (as _stage_rows has them, in order): how far it got, where and why it failed."""
    reached = [n for n, s in stages.items() if s["ok"]]
    failed = next((n for n, s in stages.items() if not s["ok"]), None)
    return {"furthest": reached[-1] if reached else None, "failed_stage": failed,
            "error": stages[failed]["error"] if failed else None,
            "ops": {n: s["ops"] for n, s in stages.items() if s["ok"]}, "stages": stages}


def _keep(path: str, b, row: dict, result) -> None:
    """Keep the job's stages up to StableHLO (kept_stages.py); a job that cannot keep them is not the worse for it
    (the next run reruns it whole), and says why."""
    earlier = {k: v for k, v in row.items() if k not in TT_FACTS}
    earlier["stages"] = {n: s for n, s in row["stages"].items() if n not in PROGRAM_STAGES}
    earlier["cpu_run_error"] = None if result.ok else f"cpu run: {result.message}"
    size = sum(v.nbytes for v in b.argument_values) + sum(g.nbytes for g in result.golden_arrays)
    if size > kept_stages.MAX_BYTES:
        row["not_kept"] = (f"its stages up to StableHLO were not kept: {human_bytes(size)} of values, over the "
                           f"{human_bytes(kept_stages.MAX_BYTES)} a job may keep")
        return
    try:
        kept_stages.keep(path, b, earlier, result.golden_arrays)
    except OSError as exc:
        row["not_kept"] = f"its stages up to StableHLO were not kept: {exc}"[:300]


# The row's facts the TT stages make (or that are made after them): a job resumed at the TT compile makes them anew
TT_FACTS = ("furthest", "failed_stage", "error", "ops", "stages", "incorrect", "seconds", "level", "op_by_op")


def _resumed_job(state: kept_stages.Kept, programs: bool, on_stage, t0: float) -> dict:
    """A job whose stages up to StableHLO are kept (unchanged since they ran): the TT compile and what follows it
    from there, on the kept arguments and golden; the row's earlier facts are the kept ones (row["resumed"])."""
    from ..pipeline import bringup_from_stablehlo  # lazy: imports torch (~2.5 s)

    mark = on_stage or (lambda name: None)
    earlier = dict(state.row)
    b = bringup_from_stablehlo(state.stablehlo, state.arguments, state.argument_values, earlier["model"],
                               earlier["frontend"], earlier["params"], progress=on_stage or False)
    stages = {**earlier["stages"], **{n: s for n, s in _stage_rows(b).items() if n in PROGRAM_STAGES}}
    cpu_run_error = earlier.pop("cpu_run_error", None)
    row = {**earlier, **_stage_facts(stages),
           "resumed": "stages up to StableHLO kept from an earlier run (unchanged since): the TT stages ran anew"}
    if row["error"] is None:
        row["error"] = cpu_run_error
    row["stage_pcc"] = {k: v for k, v in (earlier.get("stage_pcc") or {}).items() if k not in PROGRAM_STAGES}
    row["stage_notes"] = {k: v for k, v in (earlier.get("stage_notes") or {}).items() if k not in PROGRAM_STAGES}
    if programs and row.get("run_ok") is not None:
        _run_programs(b, row, mark, expected=state.golden)
    row["seconds"] = round(time.perf_counter() - t0, 1)
    return row


def level_row(b, run: bool) -> dict:
    """The model at another optimization level: whether its TTNN compiles there (the error when only the optimizer
    fails), how much the optimizer sharded into L1, and, with `run`, the program's PCC in ttbench's interpreter
    (None when it did not execute, with why)."""
    ttnn = b.stages.get(StageName.TTNN)
    out = {"level": ttnn.meta.get("optimization_level") if ttnn is not None else None,
           "ok": bool(ttnn is not None and ttnn.ok), "error": (ttnn.error or "")[:300] if ttnn is not None else
           "not compiled", "pcc": None, "note": ""}
    if not out["ok"]:
        return out
    try:
        placed = b.placement()
        out.update(results=len(placed.ops), sharded=placed.sharded, in_l1=placed.in_l1)
    except BadInput as exc:
        out["note"] = str(exc)[:300]
    if run:
        result = b.run("ttnn", device="cpu")
        out["pcc"], out["run_ok"] = result.pcc, result.ok if result.executed else None
        if not result.ok:
            out["note"] = result.message[:300]
    return out


def _run_programs(b, row: dict, mark=lambda step: None, expected=None) -> None:
    """The TTIR and TTNN programs run in ttbench's interpreter: each one's PCC against the golden into
    row["stage_pcc"] (None when it did not execute, never a PCC it did not measure), what went wrong into
    row["stage_notes"]. A program that runs and does not pass is an incorrect result: row["incorrect"] names the
    stage and where its numbers first leave the earlier stage's (incorrect_result)."""
    pccs, notes = row["stage_pcc"], row["stage_notes"]
    passed = {"stablehlo": row.get("run_ok")}
    for stage in PROGRAM_STAGES:
        if b.stages.get(stage) is not None and b.stages[stage].ok:
            mark(f"run {stage}")
            result = b.run(stage, device="cpu", expected=expected)
            pccs[stage] = result.pcc
            passed[stage] = result.ok if result.executed else None
            if not result.ok:
                notes[stage] = result.message[:300]
            if result.executed and not result.ok and "incorrect" not in row:
                row["incorrect"] = incorrect_result(b, stage, result, passed)


def incorrect_result(b, stage: str, result, passed: dict) -> dict:
    """Where a TT program's numbers go wrong: the first op whose value leaves the nearest earlier stage that passed
    (TTIR for TTNN when TTIR passes: then the TTIR -> TTNN rewrite is the suspect), with the op's text, and a
    verdict that says what the interpreter can and cannot vouch for."""
    order = PCC_STAGES
    earlier = next((s for s in reversed(order[:order.index(stage)]) if passed.get(s)), None)
    out = {"stage": stage, "pcc": result.pcc, "message": result.message[:300], "earlier": earlier}
    if earlier is None:
        out["verdict"] = f"no earlier stage passed: the drop is not {stage}'s alone"
        return out
    comparison = b.compare_stages(earlier, stage)
    d = comparison.first_divergence
    out["comparison"] = comparison.summary().splitlines()[-1]
    if d is None:
        out["verdict"] = (f"no single op of {stage} diverges from {earlier} (compared: {len(comparison.rows)} "
                          f"values): the error grows over the program")
        return out
    out.update({"op": d.op.name, "index": d.op.index, "part": d.part, "location": str(d.op.location or ""),
                "module": d.op.module, "op_pcc": d.pcc, "reference_op": d.reference.name,
                "reference_index": d.reference.index, "op_text": d.op.text[:4000]})
    out["verdict"] = (f"{earlier} matches PyTorch and {stage} first differs at {d.label}: every attribute of it is "
                      f"honoured by the interpreter, so the compiler's {earlier} -> {stage} rewrite changed the value "
                      f"- unless the interpreter's reading of {d.op.name} is wrong (a chip or the simulator settles "
                      f"that)")
    return out


def _job_op_by_op(b, tt: bool) -> dict:
    tt_device = device("tt")
    name = "tt" if tt and (tt_device.usable or tt_device.compiles) else "cpu"
    try:
        return job_ops(b.op_by_op(device=name, progress=False))
    except (BadInput, ModelFailed) as exc:
        return {"device": name, "error": str(exc), "ops": []}


JOB_MODULE = "ttbench.fleet.sweep"  # `python -m` it with "job ..." (_job_main), or fork it from the run's zygote


def preload() -> None:
    """What every job imports before its work, imported once in the run's zygote (proc/zygote.py), in the order a
    job imports it (the vision packages before transformers: hf_zoo._vision_packages_first)."""
    from .. import hf_zoo  # lazy: only the zygote imports what the jobs need
    from ..pipeline import bringup  # noqa: F401  # lazy: only the zygote imports what the jobs need
    from ..stages.fx import on_meta  # noqa: F401  # lazy: only the zygote imports what the jobs need

    hf_zoo.architectures()
    import jax  # noqa: F401  # a job runs its StableHLO on the CPU in itself (run.worker.run_here); no thread yet
    import torch_mlir.fx  # noqa: F401
    from transformers import AutoModel  # noqa: F401


def _child(model: str, frontend: str, tt: bool, run: bool, timeout: float, ops: bool = False,
           programs: bool = False, opt_level: Optional[int] = None, kept: Optional[str] = None) -> dict:
    """One job in a child process of its own, a disposable job (proc.children.in_disposable_job): what ttbench
    contains in a notebook (the eager check's fork, the pass worker) runs in it. A job that crashes there (a
    compiler's segfault) is run once more with ttbench's containment, so that the crash is its stage's failure and
    the stages before it and the rest of the job (its op by op) are kept; the row says so (`contained_rerun`). A
    job that still dies, or hangs, is the row, with the stage it had reached (the job's stage marker)."""
    with temp_folder("ttbench-sweep-") as tmp:
        out = os.path.join(tmp, "row.json")
        argv = ["job", model, frontend, out, str(int(tt)), str(int(run)), str(int(ops)), str(int(programs)),
                "" if opt_level is None else str(opt_level), kept or ""]
        cmd = [sys.executable, "-m", JOB_MODULE, *argv]
        done = zygote.run_module(JOB_MODULE, argv, timeout, {**os.environ, DISPOSABLE_JOB_ENV: "1",
                                                             **compile_service.job_env()})
        rerun = None
        if done.returncode < 0 and not done.timed_out:  # crashed uncontained: once more, contained
            rerun = f"the job {describe_exit(done.returncode)} in {_stage_reached(out + STAGE_MARKER)[1] or '?'} " \
                    "without ttbench's containment; it was run again with it"
            if os.path.exists(out + STAGE_MARKER):
                os.remove(out + STAGE_MARKER)
            done = run_once(cmd, timeout)
        if not done.timed_out and os.path.isfile(out):
            with open(out) as f:
                row = json.load(f)
            return {**row, "contained_rerun": rerun} if rerun else row
        furthest, died_in = _stage_reached(out + STAGE_MARKER)
        where = f" in {died_in}" if died_in else ""
        row = {"model": model, "frontend": frontend, "furthest": furthest, "died_in": died_in,
               "failed_stage": died_in if died_in in STAGES else "?", **({"contained_rerun": rerun} if rerun else {})}
        if done.timed_out:
            return {**row, "error": f"timed out after {timeout:g} s{where}"}
        tail = [l for l in done.stderr.splitlines() if l.strip()][-1:] or [""]
        if done.returncode > 0 and PYTHON_TRACEBACK in done.stderr:  # raised past every stage's containment
            return {**row, "error": f"{died_in or 'job'}: {INTERNAL_ERROR}: the job raised {tail[0][:200]} "
                                    f"({REPORT_BUGS})"}
        return {**row, "error": f"job {describe_exit(done.returncode)}{where}: {tail[0][:200]}",
                "killed": done.returncode < 0}  # a signal: the engine runs it once more (executors.py)


PYTHON_TRACEBACK = "Traceback (most recent call last):"  # what Python prints for an exception nothing caught


STAGE_MARKER = ".stage"  # beside a job's row file: each stage (or "run STAGE") as it starts, one per line


def _stage_reached(path: str) -> tuple:
    """(the last stage a dead job finished, the step it died in) from its stage marker; (None, None) without."""
    try:
        with open(path) as f:
            started = [l.strip() for l in f if l.strip()]
    except OSError:
        return None, None
    if not started:
        return None, None
    stages = [s for s in started[:-1] if s in STAGES]
    return (stages[-1] if stages else None), started[-1]


def classify(row: dict, known: dict) -> str:
    if row.get("not_applicable"):
        return "not applicable"
    entry = known.get(f"{row['model']}/{row['frontend']}")
    failed = row.get("failed_stage") or (row.get("run_ok") is False and "run")
    if entry:
        return "known failure" if failed or row.get("incorrect") else "known failure now passes"
    if row.get("incorrect"):
        return INCORRECT  # a TT program that runs and does not match: never a pass
    return "new failure" if failed else "pass"


INCORRECT = results_db.INCORRECT


def sweep(model_names=None, frontends=FRONTENDS, jobs: int = 2, tt: bool = True, run: bool = True,
          known_path: str = KNOWN_FAILURES, progress=None, timeout: float = JOB_TIMEOUT_S, ops: bool = False,
          db_path: Optional[str] = None, label: Optional[str] = None, engine: Optional[str] = None,
          address: Optional[str] = None) -> list:
    """Every (model, frontend) as a row; `ops`: each also runs op by op, for the op support table. Jobs run on
    `engine` (executors.py: "local" child processes, or "ray" tasks on the cluster at `address`). With
    `db_path`, the run and each row as it finishes are appended to that results database (results_db.py), and
    the rows returned are read back from it."""
    model_names = list(model_names or models.names())
    unknown = [m for m in model_names if not models.known(m)]
    if unknown:
        raise BadInput(f"unknown model(s) {', '.join(unknown)}: `ttbench models` lists the zoo")
    bad = [f for f in frontends if f not in FRONTENDS]
    if bad:
        raise BadInput(f"unknown frontend(s) {', '.join(bad)}: choose from {', '.join(FRONTENDS)}")
    return run_jobs([(m, f) for m in model_names for f in frontends], jobs=jobs, tt=tt, run=run,
                    known_path=known_path, progress=progress, timeout=timeout, ops=ops, db_path=db_path,
                    label=label, engine=engine, address=address)


def run_jobs(todo: list, jobs: int = 2, tt: bool = True, run: bool = True, known_path: str = KNOWN_FAILURES,
             progress=None, timeout: float = JOB_TIMEOUT_S, ops: bool = False, programs: bool = False,
             db_path: Optional[str] = None, label: Optional[str] = None, engine: Optional[str] = None,
             address: Optional[str] = None, kind: str = "sweep", opt_level: Optional[int] = None,
             carry_over: bool = False) -> list:
    """The bringup jobs of `todo` ((model, frontend) pairs, checked by the caller) as rows (see sweep); the run is
    recorded as `kind` ("sweep", "track"), so history compares it with the run of its kind before it.
    `carry_over` (with a database): a job unchanged since the last complete run of its kind, or finished by a later
    run that stopped part way, is not run, its row taken from that run (carry_over.py)."""
    if jobs < 1:
        raise BadInput(f"--jobs must be at least 1, got {jobs}")
    if engine not in (None, *executors.ENGINES):
        raise BadInput(f"unknown engine {engine!r}: choose one of {', '.join(executors.ENGINES)}")
    known = known_failures(known_path)
    done = [0]
    db = run_id = None
    if db_path:
        db = results_db.connect(db_path)  # before any work: a bad path is a one-line error
    options = {"tt": tt, "run": run, "ops": ops, "programs": programs, "opt_level": opt_level}
    installed = versions()
    previous = carry.previous_rows(db, kind) if db is not None and carry_over else {}
    taken_rows = [carry.lookup(carry.fingerprints(m, f, options, installed), previous) for m, f in todo]
    runner = executors.engine(engine, jobs, address)  # a Ray engine starts or joins its cluster here
    # A job not carried over resumes at the TT compile from its stages up to StableHLO where they are kept: beside
    # the database, so on this machine only (a Ray node's job runs whole).
    kept_root = kept_stages.root_for(db_path) if db_path and carry_over and runner.name == "local" else None
    kept_names = [carry.kept_fingerprint(m, f, options, installed) if kept_root else None for m, f in todo]
    if db is not None:  # a run is recorded once it can start (an engine that never came up is not a run)
        run_id = results_db.start_run(db, kind, label)
    lock = threading.Lock()

    def finished(index, row):
        model, frontend = todo[index]
        row.setdefault("params", "args")
        row["fingerprint"] = carry.row_fingerprint(model, frontend, row, options, installed)
        row["status"] = classify(row, known)
        row["known_reason"] = (known.get(f"{model}/{frontend}") or {}).get("reason")
        with lock:  # one writer: sqlite connections are not shared between threads unguarded
            done[0] += 1
            if db is not None:
                results_db.add_job(db, run_id, row)
        if progress:
            progress(done[0], len(todo), row)

    fresh = [i for i, taken in enumerate(taken_rows) if taken is None]
    rows = [None] * len(todo)
    try:
        for i, taken in enumerate(taken_rows):
            if taken is not None:
                rows[i] = carry.carried(taken[1], taken[0])
                finished(i, rows[i])
        # local jobs fork from one zygote that has imported what they import (Ray's run in their own workers)
        local = runner.name == "local" and bool(fresh)
        # ... and compile through one Tenstorrent plugin process of the run's (tt/compile_service.py)
        with zygote.running([f"{JOB_MODULE}:preload"]) if local else nullcontext(), \
                (tt and local and tt_plugin.compile_service()) or nullcontext():
            ran = runner.run([executors.Job(_child, (*todo[i], tt, run, timeout, ops, programs, opt_level,
                                                     kept_names[i] and kept_stages.folder(kept_root, kept_names[i])),
                                            timeout) for i in fresh], lambda k, row: finished(fresh[k], row))
        for i, row in zip(fresh, ran):
            rows[i] = row
    finally:
        runner.close()
    if db is None:
        return rows
    results_db.finish_run(db, run_id)  # every job is in: the run is complete (a killed sweep's stays incomplete)
    if kept_root:  # what no job of this run can resume from any more
        kept_stages.prune(kept_root, set(filter(None, kept_names)))
    ordered = {(r["model"], r["frontend"]): i for i, r in enumerate(rows)}  # the table keeps the sweep's order
    stored = sorted(results_db.job_rows(db, run_id), key=lambda r: ordered[r["model"], r["frontend"]])
    db.close()
    return stored


COLUMNS = ("model", "frontend", "status", "furthest", "stablehlo ops", "constants in IR / on device", "weights inlined",
           "coverage", "cpu pcc", "seconds", "error / known reason")


def _bytes_cell(row: dict) -> str:
    """'92 B / 16.6 KiB': what the constants take in the IR, then what the device holds for them."""
    if row.get("constant_bytes") is None:
        return "-"
    embedded = row.get("embedded_bytes")
    return f"{human_bytes(embedded) if embedded is not None else '?'} / {human_bytes(row['constant_bytes'])}"


def _cells(row: dict) -> list:
    def pct(v):
        return f"{v:.1%}" if isinstance(v, (int, float)) else "-"

    return [row["model"], row["frontend"], row["status"], row.get("furthest") or "-",
            str(row.get("ops", {}).get("stablehlo", "-")), _bytes_cell(row), pct(row.get("weights_inlined")), pct(row.get("coverage")),
            f"{row['pcc']:.6f}" if row.get("pcc") is not None else "-", str(row.get("seconds", "-")),
            (row.get("error") or row.get("not_applicable") or "") + (f" [known: {row['known_reason']}]" if row.get("known_reason") else "")]


def markdown(rows: list) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(md_cell(c) for c in _cells(r)) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def html_page(rows: list) -> str:
    return ("<!doctype html><meta charset='utf-8'><title>ttbench sweep</title><style>table{border-collapse:collapse;"
            "font:13px sans-serif}td,th{border:1px solid #999;padding:2px 6px}</style>"
            + html_table(COLUMNS, [_cells(r) for r in rows], cls="ttbench-sweep", scroll=False))


# What `ttbench sweep --out` writes, and how its status.json says so (cli: check_page_folder before any work)
MADE_BY = "ttbench sweep"
PAGES = ("status.md", "status.html", "status.json", "op_support.md", "op_support.json")
PAGE_KEYS = ("counts", "rows")  # a status.json written before `made_by`


def write(rows: list, out: str, header: Optional[str] = None) -> list:
    os.makedirs(out, exist_ok=True)
    counts = {s: sum(r["status"] == s for r in rows) for s in
              ("pass", "known failure", "new failure", INCORRECT, "known failure now passes", "not applicable")}
    intro = (header or "# Bringup status\n\nRegenerate with `make sweep`.") + "\n\n" + \
        ", ".join(f"{v} {k}" for k, v in counts.items()) + "\n\n"
    paths = []
    for name, text in (("status.md", intro + markdown(rows)), ("status.html", html_page(rows)),
                       ("status.json", json.dumps({"made_by": MADE_BY, "counts": counts, "rows": rows}, indent=2,
                                                  default=str) + "\n")):
        paths.append(write_text_atomic(os.path.join(out, name), text))
    if any("op_by_op" in r for r in rows):
        paths += write_op_support(rows, out)
    return paths


def write_op_support(rows: list, out: str) -> list:
    """docs/op_support.md and .json from sweep rows that ran op by op."""
    conformance_path = os.path.join(out, "onnx_conformance.json")
    table = op_support.op_support(rows, op_support.load_conformance(conformance_path))
    ran = [r["op_by_op"] for r in rows if isinstance(r.get("op_by_op"), dict)]
    compile_only = any(o.get("compile_only") for o in ran)
    through = ("through the Tenstorrent compiler to a flatbuffer (compile-only: no chip)" if compile_only else
               "through " + ", ".join(sorted({o.get("device", "?") for o in ran})) + " against the golden")
    refused = [f"- {r['model']}/{r['frontend']}: {r['op_by_op']['error']}" for r in rows
               if isinstance(r.get("op_by_op"), dict) and r["op_by_op"].get("error")]
    text = ("# Op support\n\nRegenerate with `make sweep`. Every op of every zoo bringup on its own (op by op, "
            "isolated), " + through + "; a variant is one (op, input shapes, arguments). The ONNX column counts "
            "ONNX's node tests for that op that reach TTNN (" + ("docs/onnx_conformance.json" if os.path.isfile(
                conformance_path) else "no conformance table beside this one") + ").\n\n"
            + op_support.markdown(table)
            + ("\nBringups with no op-by-op rows:\n" + "\n".join(refused) + "\n" if refused else ""))
    return [write_text_atomic(os.path.join(out, "op_support.md"), text),
            write_text_atomic(os.path.join(out, "op_support.json"),
                              json.dumps({"through": through, "ops": table}, indent=2, default=str) + "\n")]


def _inject_fault(model: str) -> None:
    """For testing that a killed job is retried once, then reported: TTBENCH_SWEEP_FAULT=kill:MODEL kills every
    job of MODEL; kill-once:MODEL:MARKER only the first (it leaves MARKER behind). (raise:MODEL:STAGE,
    kill-at:MODEL:STAGE: _fault_at.)"""
    fault = os.environ.get("TTBENCH_SWEEP_FAULT", "").split(":", 2)
    if len(fault) >= 2 and fault[1] == model and fault[0] in ("kill", "kill-once"):
        if fault[0] == "kill-once" and len(fault) == 3:
            if os.path.exists(fault[2]):
                return
            open(fault[2], "w").close()
        os.kill(os.getpid(), 9)


def _fault_at(model: str, stage: str) -> None:
    """For testing how a job that fails outside every stage's containment is said: TTBENCH_SWEEP_FAULT=
    raise:MODEL:STAGE raises as MODEL's job starts STAGE (or "run STAGE"); kill-at:MODEL:STAGE kills the job
    there, as the OOM killer does."""
    fault = os.environ.get("TTBENCH_SWEEP_FAULT")
    if fault == f"raise:{model}:{stage}":
        raise RuntimeError("planted")
    if fault == f"kill-at:{model}:{stage}":
        os.kill(os.getpid(), 9)


def _job_main(argv) -> int:
    model, frontend, out, tt, run, ops, programs, opt_level, kept = argv
    watch_parent()
    _inject_fault(model)
    marker = open(out + STAGE_MARKER, "a", buffering=1)  # line-buffered: each stage is on disk as it starts

    def on_stage(name: str) -> None:
        marker.write(f"{name}\n")
        _fault_at(model, name)

    row = run_job(model, frontend, tt == "1", run == "1", ops == "1", programs == "1",
                  int(opt_level) if opt_level else None, on_stage=on_stage, kept=kept or None)
    marker.close()
    with open(out, "w") as f:
        json.dump(row, f, default=str)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["job"]:
        sys.exit(_job_main(sys.argv[2:]))
    sys.exit(2)
