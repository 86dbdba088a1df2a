"""The tracker's run: which jobs, run through the sweep's engines, then triage, history and the projection."""
from __future__ import annotations

import json
import os
import re
import shutil
import sys
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Optional

from ... import hf_zoo, vision_zoo
from ...core import TORCH_MLIR_STAGES, BadInput
from ...io.atomic import write_text_atomic
from ...proc import zygote
from ...proc.children import run_once, stoppable_pool
from ...proc.client import describe_exit
from ...proc.scratch import temp_folder
from .. import results_db, sweep
from . import statuses as st
from . import triage as tr

ONNX_SAMPLE = 12  # architectures that also go through the ONNX exporter (spread evenly over the sorted list)
FRONTENDS = ("export", "onnx", "dynamo")  # dynamo, when asked for, on the same sample as ONNX
DEFAULT_FRONTENDS = ("export", "onnx")


@dataclass
class TrackResult:
    rows: list  # one per job, as the sweep's (each failed one with "verdict" and "why")
    groups: list  # triage.Group, largest first
    seconds: Optional[float]  # the jobs' wall time; None when the rows came from an earlier run (--from-run)
    triage_seconds: float
    jobs: int  # parallel jobs per node this run used
    history: str = ""  # against the previous track run in the database, or why there is none
    regressed: bool = False
    run_id: Optional[int] = None
    versions: dict = field(default_factory=dict)
    whole: int = 0  # jobs of the whole tracker (every architecture of every zoo), for the projection
    judged: Optional[dict] = None  # the rows against the expected-status table (statuses.against_expected)
    expected_path: Optional[str] = None
    tt: bool = True  # whether the jobs went through the Tenstorrent stages
    triaged: bool = True  # False (--no-triage): the failures have no verdict and no group
    complete: bool = True  # False: a stored run that stopped part way (--from-run), its rows the jobs it finished

    @property
    def worse_than_expected(self) -> bool:
        return bool(self.judged and self.judged["worse"])

    def projection(self, nodes=(1, 4, 16)) -> list:
        """[(nodes, seconds)]: the whole tracker's `whole` jobs at this run's mean measured job time (its triage
        included, per failed job), spread over `nodes` nodes of `jobs` slots each; never below the longest job."""
        times = [float(r.get("seconds") or 0) for r in self.rows]
        if not times:
            return []
        per_job = (sum(times) + self.triage_seconds * self.jobs) / len(times)
        return [(n, max(per_job * max(self.whole, len(times)) / (n * self.jobs), max(times))) for n in nodes]


def plan(archs: Optional[list] = None, frontends=DEFAULT_FRONTENDS, onnx_sample: int = ONNX_SAMPLE) -> list:
    """(model, frontend) pairs: every architecture through export; `onnx_sample` of them, spread evenly, through
    the ONNX exporter and (when in `frontends`) torch.compile's dynamo capture too. `archs`: transformers
    architectures (ARCH) and vision zoo entries (timm/FAMILY, torchvision/NAME); default: every transformers
    architecture (one that does not build is a frontend failure with its reason) and every vision zoo entry."""
    every = hf_zoo.architectures()
    census = hf_zoo.recorded_census()
    builds = {r["arch"] for r in census["rows"] if r["status"] == "ok"} if census else None
    if archs is None:  # every architecture that exists: one that does not build is a row too (a frontend failure)
        archs = every + vision_zoo.entries()
    vision = [a for a in archs if a.startswith(vision_zoo.PREFIXES)]
    unknown = [a for a in archs if a not in every and a not in vision]
    if unknown:
        raise BadInput(f"unknown transformers architecture(s) {', '.join(unknown)}: `ttbench models --hf` lists them")
    unknown = [a for a in vision if not vision_zoo.known(a)]
    if unknown:
        raise BadInput(f"unknown vision zoo entries {', '.join(unknown)}: `ttbench models --vision` lists them")
    bad = [f for f in frontends if f not in FRONTENDS]
    if bad:
        raise BadInput(f"the tracker runs the frontends {', '.join(FRONTENDS)}, not {', '.join(bad)}")
    if onnx_sample < 0:
        raise BadInput(f"--onnx-sample must be 0 or more, got {onnx_sample}")
    # the ONNX sample from those the census saw build (a sample of build failures would say nothing of ONNX)
    pool = [a for a in archs if builds is None or a in builds or a in vision]
    step = max(1, len(pool) // onnx_sample) if onnx_sample else 0
    sample = set(pool[::step][:onnx_sample]) if step else set()
    name = {a: a if a in vision else hf_zoo.PREFIX + a for a in archs}
    todo = [(name[a], "export") for a in archs if "export" in frontends]
    todo += [(name[a], "onnx") for a in archs if "onnx" in frontends and a in sample]
    todo += [(name[a], "dynamo") for a in archs if "dynamo" in frontends and a in sample]
    return todo


def track(archs: Optional[list] = None, frontends=DEFAULT_FRONTENDS, onnx_sample: int = ONNX_SAMPLE,
          jobs: int = 2, tt: bool = True, triage: bool = True, repro_root: Optional[str] = None,
          db_path: Optional[str] = None, label: Optional[str] = None, engine: Optional[str] = None, address: Optional[str] = None, progress=None,
          timeout: float = sweep.JOB_TIMEOUT_S, from_run: Optional[str] = None,
          opt_level: Optional[int] = None, expected: Optional[str] = None, carry_over: bool = False) -> TrackResult:
    """Run the tracker (see the package doc). `repro_root`: where each group's reproduction folder goes (none
    written without it). Progress: `progress(phase, done, total, detail)`. `from_run`: no jobs; the rows of that
    track run in the database (an id or a label) are triaged again (after a fix to the triage, or to see which
    upstream failures a new torch-mlir still reproduces; with `triage` False, only its page is written again); its
    wall time is then unknown. `opt_level`: each job whose TTNN compiles also compiles at that optimization level
    (the page's level column: compiles there or not, what the optimizer sharded, the program's PCC in the
    interpreter). `expected`: the expected-status table each row
    is judged against (statuses.py: the table's part for runs with or without `tt`).
    `carry_over`: a job unchanged since the last complete track run in the database is not run again, nor triaged
    again; a failure group all of whose jobs are carried over keeps its reproduction (fleet/carry_over.py)."""
    expected_table = st.load_expected(expected, tt) if expected else None  # a bad table: before any work
    db_path = db_path or results_db.default_path()
    seconds: Optional[float] = None
    complete = True
    if from_run is not None:
        rows, run_id, complete = stored_rows(db_path, from_run)
    else:
        todo = plan(archs, frontends, onnx_sample)
        t0 = time.perf_counter()
        rows = sweep.run_jobs(todo, jobs=jobs, tt=tt, run=True, programs=True, db_path=db_path, label=label,
                              engine=engine, address=address, kind="track", timeout=timeout, opt_level=opt_level,
                              carry_over=carry_over,
                              progress=(lambda d, n, row: progress("jobs", d, n, row)) if progress else None)
        seconds = time.perf_counter() - t0
        run_id = None
    t1 = time.perf_counter()
    for row in rows:
        row["track_status"], row["status_detail"] = st.job_status(row)
    failed = [r for r in rows if r.get("failed_stage") or r.get("run_ok") is False or r.get("incorrect")]
    groups = triage_rows(failed, jobs, tt, repro_root, progress) if triage else []
    if from_run is None and triage:  # the verdicts go with the rows: a carried-over job is not triaged again
        with results_db.readable(db_path):
            db = results_db.connect(db_path)
            try:
                results_db.update_jobs(db, results_db.run_ids(db, "track")[-1], failed)
            finally:
                db.close()
    _shown(rows, groups)
    result = TrackResult(rows, groups, seconds, time.perf_counter() - t1, jobs, tt=tt, triaged=triage,
                         complete=complete, whole=_whole_size(frontends, onnx_sample))
    if expected_table is not None:
        result.judged, result.expected_path = st.against_expected(rows, expected_table), expected
    db = results_db.connect_readonly(db_path) if from_run is not None else results_db.connect(db_path)
    try:
        result.run_id = run_id or results_db.run_ids(db, "track")[-1]
        result.versions = results_db.describe_run(db, result.run_id)["versions"]
        try:
            history = results_db.history(db, after=result.run_id)
            result.history, result.regressed = history.text(), history.regressed
        except BadInput as exc:  # the first track run: nothing to compare with
            result.history = f"no history: {exc}"
    finally:
        db.close()
    return result


def stored_rows(db_path: str, ref: str) -> tuple:
    """(rows, run id, complete) of a track run in the database, by id or label: a run that stopped part way (a
    reboot, Ctrl-C) gives the jobs it finished, and says so (complete False)."""
    if not os.path.isfile(db_path):
        raise BadInput(f"no results database at {db_path}: give --db PATH")
    with results_db.readable(db_path):
        db = results_db.connect_readonly(db_path)
        try:
            run_id = results_db.resolve_run(db, ref)
            run = results_db.describe_run(db, run_id)
            if run["kind"] != "track":
                raise BadInput(f"run {run_id} is a {run['kind']} run: --from-run takes a track run")
            return results_db.job_rows(db, run_id), run_id, run["complete"]
        finally:
            db.close()


def _shown(rows: list, groups: list) -> None:
    """Every text of the rows and groups as a committed page shows it: no machine paths (the database keeps them
    as they were)."""
    def clean(value):
        if isinstance(value, str):
            return tr.shown(value)
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value

    rows[:] = [clean(row) for row in rows]
    for g in groups:
        g.message, g.example, g.why, g.repro_note = (tr.shown(t) for t in (g.message, g.example, g.why,
                                                                             g.repro_note))


def _whole_size(frontends, onnx_sample: int) -> int:
    """How many jobs the whole tracker has (every architecture of every zoo)."""
    try:
        return len(plan(None, frontends, onnx_sample))
    except BadInput:
        return 0


def triage_rows(failed: list, jobs: int, tt: bool, repro_root: Optional[str], progress=None) -> list:
    """Each failed row's verdict (its bare route run fresh, `jobs` at a time), the groups, a reproduction each."""
    done = [0]
    with temp_folder("ttbench-track-") as tmp:
        def bare(index_row):
            index, row = index_row
            if row.get("carried_over") and row.get("verdict"):  # triaged in the run it was measured in
                done[0] += 1
                return None, None
            folder = os.path.join(tmp, f"job{index}")
            os.makedirs(folder)
            to_tt = tt and tr.bare_step(row.get("failed_stage")) == "tt"  # the plugin only where ttbench failed in it
            path = tr.write_bare_script(row["model"], row["frontend"], folder, to_tt, row.get("failed_stage") or "?",
                                        tr.shown(row.get("error") or "?"))
            forked = row["frontend"] == "export" and not to_tt  # what BARE_PRELOAD is made for
            run = tr.run_script(path, tr.BARE_TIMEOUT_S, to_tt, forked) if path else None
            row["verdict"], row["why"] = tr.verdict(row, run)
            row["bare"] = None if run is None else {"reached": run.reached, "passed": run.passed, "error": run.error}
            done[0] += 1
            if progress:
                progress("triage", done[0], len(failed), row)
            return path, run

        # the bare runs fork from one zygote (the reproductions below are checked in fresh interpreters)
        with zygote.running(tr.BARE_PRELOAD) if failed else nullcontext(), stoppable_pool(jobs) as pool:
            bare_runs = dict(zip((id(r) for r in failed), pool.map(bare, enumerate(failed))))
        groups = tr.group_rows(failed)
        if repro_root is not None:
            kept = os.path.join(tmp, "previous-repros")
            earlier = _previous_groups(repro_root)
            if os.path.isdir(repro_root):
                shutil.move(repro_root, kept)  # the previous run's reproductions: this run's replace them whole
            by_job = {f"{r['model']}/{r['frontend']}": r for r in failed}
            folders = [os.path.join(repro_root, _folder_name(i, group)) for i, group in enumerate(groups)]
            todo = [(g, f) for g, f in zip(groups, folders)
                    if not _keep_reproduction(g, by_job, earlier, kept, f, repro_root)]
            made = [len(groups) - len(todo)]
            lock = threading.Lock()

            def reproduce(group_folder) -> None:  # each group's in its own folder: `jobs` groups at a time
                group, folder = group_folder
                first = next((by_job[j] for j in group.jobs if bare_runs[id(by_job[j])][0] is not None),
                             by_job[group.jobs[0]])
                make_repro(group, first, bare_runs[id(first)], folder, repro_root)
                opened = next((f for f in REPRO_FILES if os.path.isfile(os.path.join(folder, f))), None)
                group.repro_file = os.path.relpath(os.path.join(folder, opened), repro_root) if opened else None
                if progress:
                    state = {True: "reproduces", False: "not reproduced", None: group.verdict}[group.reproduces]
                    with lock:
                        made[0] += 1
                        progress("repros", made[0], len(groups), {**first, "verdict": f"{group.stage}: {state}"})

            with stoppable_pool(jobs) as pool:
                list(pool.map(reproduce, todo))
    return groups


def _previous_groups(repro_root: str) -> dict:
    """The groups of the page beside `repro_root` (its status.json), by what makes a group: {key: group dict}."""
    try:
        with open(os.path.join(os.path.dirname(repro_root), "status.json")) as f:
            data = json.load(f)
        return {_group_key(g): g for g in data.get("groups") or [] if isinstance(g, dict)}
    except (OSError, ValueError, AttributeError, TypeError, KeyError):
        return {}


def _group_key(group) -> tuple:
    get = group.get if isinstance(group, dict) else lambda k: getattr(group, k)
    return (get("verdict"), get("stage"), get("op"), tr.shown(get("message") or ""), tuple(get("jobs") or ()))


def _keep_reproduction(group, by_job: dict, earlier: dict, kept: str, folder: str, root: str) -> bool:
    """A group whose jobs are all carried over and that the previous page had, jobs and all, keeps that page's
    reproduction (moved under this run's folder name) and what was found about it."""
    if not all(by_job[j].get("carried_over") for j in group.jobs):
        return False
    old = earlier.get(_group_key(group))
    source = os.path.join(kept, os.path.basename(old.get("repro") or "")) if old else ""
    if not old or not old.get("repro") or not os.path.isdir(source) or os.path.islink(source):
        return False
    os.makedirs(root, exist_ok=True)
    shutil.move(source, folder)
    group.repro = os.path.relpath(folder, root)
    group.reproduces, group.repro_note = old.get("reproduces"), old.get("repro_note") or ""
    opened = os.path.basename(old.get("repro_file") or "")
    group.repro_file = os.path.join(group.repro, opened) if opened and os.path.isfile(
        os.path.join(folder, opened)) else None
    return True


KNOWN_BY = "ttbench track"
REPRO_FILES = ("repro.py", "model.py", "op.mlir", "op_alone.py")  # what a row of the page links to, first found


def update_known(result, path: str, repro_root: str) -> tuple:
    """Write the run's upstream failures whose reproduction fails the same way into the known-failures list at
    `path` (the sweep and the tracker mark them "known failure" from then on; one that passes again says so).
    Entries written by hand are kept; the tracker's own entries for the jobs of this run are replaced.
    -> (entries added, entries dropped)."""
    data = {}
    if os.path.isfile(path):
        with open(path) as f:
            data = json.load(f)
    ran = {f"{r['model']}/{r['frontend']}" for r in result.rows}
    old = {k for k, v in data.items() if isinstance(v, dict) and v.get("by") == KNOWN_BY and k in ran}
    new = {}
    by_job = {f"{r['model']}/{r['frontend']}": r for r in result.rows}
    for g in result.groups:
        if g.verdict != "upstream" or not g.reproduces:
            continue
        for job in g.jobs:
            new[job] = {"stage": g.stage, "reason": (by_job[job].get("error") or g.example)[:300],
                        "repro": os.path.join(repro_root, g.repro or ""), "by": KNOWN_BY}
    for k in old - set(new):
        del data[k]
    data.update(new)
    write_text_atomic(path, json.dumps(data, indent=2) + "\n")
    sweep.known_failures(path)  # what was written reads back as the sweep reads it
    return len(set(new) - old), len(old - set(new))


def _folder_name(index: int, group) -> str:
    """One path component, whatever the group's texts hold (a stored row's stage can say `../`)."""
    slug = "-".join(p for p in (group.verdict, group.stage, group.op) if p)
    return f"{index + 1:03d}-{re.sub(r'[^A-Za-z0-9_-]+', '_', slug)}"[:80]


def make_repro(group, row: dict, bare: tuple, folder: str, root: str) -> None:
    """The group's reproduction into `folder`: the op alone when one op fails the same way (checked fresh), else
    the model-level bare script when it fails the same way; what was found goes into the group."""
    os.makedirs(folder)
    group.repro = os.path.relpath(folder, root)
    bare_path, bare_run = bare
    if group.verdict == "ours":
        group.repro_note = (f"ours to fix: `ttbench bringup {row['model']} --frontend {row['frontend']}` shows it; "
                            + (f"the bare route passes ({os.path.basename(bare_path)})" if bare_path else ""))
    if bare_path:
        shutil.copyfile(bare_path, os.path.join(folder, "model.py"))
    if tr.wrong_numbers_only(row) and row["incorrect"].get("op"):
        _divergence_repro(group, row, folder)
        return
    if group.verdict != "upstream":
        group.reproduces = None
        return
    stage, error = row.get("failed_stage") or "?", row.get("error") or ""
    if row["frontend"] == "export" and (stage in TORCH_MLIR_STAGES or tr.bare_step(stage) == "tt"):
        error_file = os.path.join(folder, ".error")
        write_text_atomic(error_file, error)
        done = run_once([sys.executable, "-m", "ttbench.fleet.track.triage", "repro", row["model"], row["frontend"],
                         stage, error_file, folder], tr.REPRO_TIMEOUT_S)
        os.remove(error_file)
        script = os.path.join(folder, "repro.py")
        if done.ok and os.path.isfile(script):
            run = tr.run_script(script, tr.BARE_TIMEOUT_S, tr.bare_step(stage) == "tt")
            if tr.same_failure(run, stage, error):
                group.reproduces, group.repro_note = True, f"repro.py: {_op_of(folder)} alone, fails the same way"
                return
            group.repro_note = f"{_op_of(folder)} alone does not fail the same way ({run.error[:120] or 'it passes'}); "
            os.replace(script, os.path.join(folder, "op_alone.py"))
    if bare_run is not None and tr.same_failure(bare_run, stage, error):
        group.reproduces = True
        group.repro_note += "model.py: the model through the upstream route, fails the same way"
    else:
        group.reproduces = False
        group.repro_note += "no script reproduces the same message" + (
            f" (the bare route: {bare_run.error[:120]})" if bare_run is not None and bare_run.error else "")


def _divergence_repro(group, row: dict, folder: str) -> None:
    """An incorrect result's reproduction: the op's text, its operands and both values (triage.write_divergence),
    made in a child that brings the model up again."""
    facts = os.path.join(folder, ".incorrect.json")
    write_text_atomic(facts, json.dumps(row["incorrect"]))
    done = run_once([sys.executable, "-m", "ttbench.fleet.track.triage", "divergence", row["model"],
                     row["frontend"], facts, folder], tr.REPRO_TIMEOUT_S)
    os.remove(facts)
    group.reproduces = None  # a second reading (chip or simulator) is what would settle it
    if done.ok and os.path.isfile(os.path.join(folder, "values.npz")):
        script = ("repro.py: fails alone with the stated PCC (numpy only); "
                  if os.path.isfile(os.path.join(folder, "repro.py")) else "")
        group.repro_note = (f"{script}op.mlir: the diverging op's text in both stages; values.npz: its operands and "
                            f"both stages' values (ttbench's interpreter); divergence.json: what was compared")
    else:
        tail = [l for l in done.stderr.splitlines() if l.strip()][-1:] or [describe_exit(done.returncode)]
        group.repro_note = f"the values could not be written: {tail[0][:200]}"


def _op_of(folder: str) -> str:
    try:
        with open(os.path.join(folder, "op.json")) as f:
            return json.load(f).get("op") or "the op"
    except (OSError, ValueError):
        return "the op"
