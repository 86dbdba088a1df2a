"""Every sweep result, kept: an embedded SQLite database that runs only ever append to, and the history over it.

    runs    one row per sweep: when, what kind, a label, the versions of everything that shapes the result, the
            machine
    jobs    one row per (run, model, frontend, params): furthest stage, first error, PCC, coverage, constant bytes,
            seconds, status
    stages  one row per (job, stage): ok, op count, seconds, error

`history()` compares two runs (by default the last complete one and the complete one of the same kind before
it) job by job: newly failing, newly passing, furthest stage moved, PCC drop, time xN. A run is complete once
`finish_run` marks it; one killed half-way stays incomplete and is never taken as "the last run" silently. The
status table of a sweep is a query over its run (`job_rows`). A damaged database is one line (BadInput).
"""
from __future__ import annotations

import json
import os
import platform
import sqlite3
import time
import urllib.parse
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator, Optional

from ..core import BadInput, STAGES
from ..optional import versions
from ..proc.scratch import cache_dir

DB_NAME = "ttbench_results.sqlite"
SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT, started REAL NOT NULL, kind TEXT NOT NULL, label TEXT,
    versions TEXT NOT NULL, machine TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id INTEGER NOT NULL REFERENCES runs(id), model TEXT NOT NULL,
    frontend TEXT NOT NULL, params TEXT NOT NULL, furthest TEXT, failed_stage TEXT, error TEXT, status TEXT,
    pcc REAL, run_ok INTEGER, coverage REAL, embedded_bytes INTEGER, constant_bytes INTEGER, seconds REAL,
    row TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS stages (
    job_id INTEGER NOT NULL REFERENCES jobs(id), stage TEXT NOT NULL, ok INTEGER NOT NULL, ops INTEGER,
    seconds REAL, error TEXT);
CREATE INDEX IF NOT EXISTS jobs_by_run ON jobs(run_id);
"""
# Stages in pipeline order, for "the furthest stage moved": later is better.
ORDER = STAGES  # furthest-stage ranks
TIME_FACTOR = 2.0  # a job this many times slower (and at least MIN_SLOWER_S slower) is reported
MIN_SLOWER_S = 5.0
PCC_DROP = 1e-4


INCORRECT = "incorrect result"  # a job's status when a TT program runs and does not match PyTorch


def default_path(out: Optional[str] = None) -> str:
    """Beside the sweep's output when it has one; else in ttbench's cache folder (one history per user)."""
    if out:
        return os.path.join(out, DB_NAME)

    return os.path.join(cache_dir(), DB_NAME)


def connect(path: str) -> sqlite3.Connection:
    """Open (or create) the database at `path`; refuse a path that is a symlink or not a database."""
    if os.path.islink(path):
        raise BadInput(f"{path} is a symlink: give the database file itself")
    if os.path.isdir(path):
        raise BadInput(f"{path} is a folder: give a database file (e.g. {os.path.join(path, DB_NAME)})")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise BadInput(f"{parent} does not exist: make the folder for the results database first")
    if not os.access(parent, os.W_OK | os.X_OK) or (os.path.exists(path) and not os.access(path, os.R_OK | os.W_OK)):
        raise BadInput(f"cannot write the results database {path}: give another place with --db PATH")
    with readable(path):
        db = sqlite3.connect(path, timeout=30, check_same_thread=False)  # the sweep writes from its pool, locked
        db.executescript(SCHEMA)
        if "complete" not in [c[1] for c in db.execute("PRAGMA table_info(runs)")]:
            # databases from before runs were marked: their runs count as complete (nothing says otherwise)
            with db:
                db.execute("ALTER TABLE runs ADD COLUMN complete INTEGER NOT NULL DEFAULT 1")
    return db


def connect_readonly(path: str) -> sqlite3.Connection:
    """Open an existing database to read it only (`history`, `track --from-run`): nothing is created, migrated or
    written, so a database the user may read but not write is read, and left exactly as it was."""
    if os.path.islink(path):
        raise BadInput(f"{path} is a symlink: give the database file itself")
    if not os.path.isfile(path):
        raise BadInput(f"no results database at {path}: run `ttbench sweep` first, or give --db PATH")
    if not os.access(path, os.R_OK):
        raise BadInput(f"cannot read the results database {path}: give another --db PATH")
    with readable(path):
        db = sqlite3.connect(f"file:{urllib.parse.quote(os.path.abspath(path))}?mode=ro", uri=True, timeout=30,
                             check_same_thread=False)
        if "complete" not in [c[1] for c in db.execute("PRAGMA table_info(runs)")]:
            # from before runs were marked (connect() adds the column): read as complete, in a view of its own
            db.execute("CREATE TEMP VIEW runs AS SELECT *, 1 AS complete FROM main.runs")
    return db


@contextmanager
def readable(path: str) -> Iterator[None]:
    """A damaged database or an unreadable row inside the block is one line naming the file (BadInput)."""
    try:
        yield
    except BadInput:
        raise  # already one line of its own (a run that is not there): not a damaged row
    except sqlite3.DatabaseError as exc:
        raise BadInput(f"{path} is not a ttbench results database, or a damaged one ({exc}): give another --db, "
                       f"or move it aside to start a new one") from None
    except RecursionError:  # a stored row nested past what json reads
        raise BadInput(f"{path} holds a row nested too deeply to read: give another --db, or move it aside to "
                       f"start a new one") from None
    except (ValueError, KeyError, TypeError) as exc:  # a row that is not what ttbench wrote
        raise BadInput(f"{path} holds a row ttbench cannot read ({type(exc).__name__}: {exc}): give another "
                       f"--db, or move it aside to start a new one") from None


def start_run(db: sqlite3.Connection, kind: str, label: Optional[str] = None) -> int:
    machine = f"{platform.node()} {platform.machine()} {os.cpu_count()} cpus"
    with db:
        cur = db.execute("INSERT INTO runs (started, kind, label, versions, machine, complete) "
                         "VALUES (?, ?, ?, ?, ?, 0)",
                         (time.time(), kind, label, json.dumps(versions(), sort_keys=True), machine))
    return cur.lastrowid


def finish_run(db: sqlite3.Connection, run_id: int) -> None:
    """Mark a run complete: every job it set out to do is in. A run killed before this stays incomplete."""
    with db:
        db.execute("UPDATE runs SET complete = 1 WHERE id = ?", (run_id,))


def add_job(db: sqlite3.Connection, run_id: int, row: dict) -> None:
    """One sweep row (see sweep.run_job), as it finished."""
    with db:
        cur = db.execute(
            "INSERT INTO jobs (run_id, model, frontend, params, furthest, failed_stage, error, status, pcc, run_ok,"
            " coverage, embedded_bytes, constant_bytes, seconds, row) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (run_id, row["model"], row["frontend"], row.get("params") or "args", row.get("furthest"),
             row.get("failed_stage"), row.get("error"), row.get("status"), row.get("pcc"),
             None if row.get("run_ok") is None else int(bool(row["run_ok"])), row.get("coverage"),
             row.get("embedded_bytes"), row.get("constant_bytes"), row.get("seconds"),
             json.dumps(row, default=str)))
        for name, stage in (row.get("stages") or {}).items():
            db.execute("INSERT INTO stages (job_id, stage, ok, ops, seconds, error) VALUES (?, ?, ?, ?, ?, ?)",
                       (cur.lastrowid, name, int(bool(stage.get("ok"))), stage.get("ops"), stage.get("seconds"),
                        stage.get("error")))


def update_jobs(db: sqlite3.Connection, run_id: int, rows: list) -> None:
    """Rows of a run given facts found after they were added (the tracker's triage verdicts), stored whole again
    (a carried-over job brings them with it)."""
    with db:
        for row in rows:
            db.execute("UPDATE jobs SET row = ? WHERE run_id = ? AND model = ? AND frontend = ?",
                       (json.dumps(row, default=str), run_id, row["model"], row["frontend"]))


def conformance_job(row: dict) -> dict:
    """One ONNX node test of a conformance run (conformance.run_case) as a job row: the test is the model, its
    path through ttbench the result (reached stage, ttnn when the TT compile got there, CPU match as run_ok)."""
    path = row.get("ttbench") or {}
    furthest = "ttnn" if path.get("tt") == "ttnn" else path.get("reached")
    ok = path.get("cpu") == "match" and path.get("tt") in (None, "ttnn")
    return {"model": row["test"], "frontend": "onnx", "params": "inline", "furthest": furthest,
            "failed_stage": None if ok else (furthest or "?"), "error": path.get("error"),
            "status": "pass" if ok else "fail", "run_ok": path.get("cpu") == "match" if path.get("cpu") else None,
            "seconds": row.get("seconds"), "op": row.get("op")}


def job_rows(db: sqlite3.Connection, run_id: int) -> list:
    """The sweep rows of one run, in the order they were added (what the status table shows)."""
    return [json.loads(r[0]) for r in db.execute("SELECT row FROM jobs WHERE run_id = ? ORDER BY id", (run_id,))]


@dataclass
class Change:
    model: str
    frontend: str
    params: str
    kind: str  # "newly failing", "newly passing", "furthest stage moved", "pcc drop", "slower", "gone", "new"
    detail: str
    regression: bool


@dataclass
class History:
    before: dict  # the older run: id, started, label, versions, complete
    after: dict
    changes: list = field(default_factory=list)  # Change
    notes: list = field(default_factory=list)  # what the reader must know first (an incomplete run passed over)

    @property
    def regressed(self) -> bool:
        return any(c.regression for c in self.changes)

    def text(self) -> str:
        def name(run):
            when = time.strftime('%Y-%m-%d %H:%M', time.localtime(run['started']))
            return f"run {run['id']} ({run['label'] or run['kind']}, {when}" + \
                (", INCOMPLETE: killed before it finished)" if not run["complete"] else ")")

        lines = [f"note: {n}" for n in self.notes] + [f"{name(self.before)} -> {name(self.after)}"]
        moved = {k: (self.before["versions"].get(k), v) for k, v in self.after["versions"].items()
                 if self.before["versions"].get(k) != v}
        lines += [f"  version {k}: {a} -> {b}" for k, (a, b) in sorted(moved.items())]
        if not self.changes:
            lines.append("no job changed")
        for c in self.changes:
            mark = "REGRESSION" if c.regression else "improved" if c.kind in ("newly passing",) else "changed"
            lines.append(f"{mark}: {_one_line(f'{c.model}/{c.frontend}/{c.params}')}: {c.kind}: {_one_line(c.detail)}")
        return "\n".join(lines)


DETAIL_CHARS = 400  # of one text in a change's line: a stored error can be 100 MB


def _one_line(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= DETAIL_CHARS else f"{text[:DETAIL_CHARS]}... ({len(text):,} characters)"


def describe_run(db, run_id: int) -> dict:
    """One run's id, start, kind, label, versions and completeness."""
    found = db.execute("SELECT id, started, kind, label, versions, complete FROM runs WHERE id = ?",
                       (run_id,)).fetchone()
    if found is None:
        raise BadInput(f"no run {run_id} in the results database")
    return {"id": found[0], "started": found[1], "kind": found[2], "label": found[3],
            "versions": json.loads(found[4]), "complete": bool(found[5])}


def run_ids(db: sqlite3.Connection, kind: Optional[str] = None, complete_only: bool = False) -> list:
    conditions = (["kind = ?"] if kind else []) + (["complete = 1"] if complete_only else [])
    where = f"WHERE {' AND '.join(conditions)}" if conditions else ""
    return [r[0] for r in db.execute(f"SELECT id FROM runs {where} ORDER BY id", (kind,) if kind else ())]


def resolve_run(db: sqlite3.Connection, ref: str) -> int:
    """A run by id, or the last run with that label."""
    if ref.isdigit():
        return describe_run(db, int(ref))["id"]
    found = db.execute("SELECT id FROM runs WHERE label = ? ORDER BY id DESC LIMIT 1", (ref,)).fetchone()
    if found is None:
        raise BadInput(f"no run labelled {ref!r} in the results database (give a run id or a --label used before)")
    return found[0]


def _jobs(db, run_id: int) -> dict:
    out = {}
    for model, frontend, params, furthest, failed_stage, run_ok, error, pcc, seconds, status in db.execute(
            "SELECT model, frontend, params, furthest, failed_stage, run_ok, error, pcc, seconds, status FROM jobs "
            "WHERE run_id = ? ORDER BY id", (run_id,)):
        wrong = status == INCORRECT  # a TT program that runs and does not match: failing, whatever the CPU run says
        out[(model, frontend, params)] = {"furthest": furthest, "error": error or (status if wrong else None),
                                          "failed": failed_stage is not None or run_ok == 0 or wrong,
                                          "pcc": pcc, "seconds": seconds}
    return out


def _rank(stage) -> int:
    return ORDER.index(stage) if stage in ORDER else -1


def history(db: sqlite3.Connection, before: Optional[int] = None, after: Optional[int] = None) -> History:
    """What changed between two runs (default: the last two complete ones of the database)."""
    notes = []
    if after is None:
        ids, complete = run_ids(db), run_ids(db, complete_only=True)
        if not ids:
            raise BadInput("the results database holds no run yet: run `ttbench sweep` (or conformance) first")
        if not complete:
            raise BadInput(f"every run in the results database is incomplete (killed before it finished): give "
                           f"--after {ids[-1]} to look at one anyway")
        after = complete[-1]
        skipped = [i for i in ids if i > after]
        if skipped:
            notes.append(f"run{'s' if len(skipped) > 1 else ''} {', '.join(map(str, skipped))} "
                         f"{'are' if len(skipped) > 1 else 'is'} incomplete (killed before finishing): compared "
                         f"the last complete run, {after}")
    if before is None:
        kind = describe_run(db, after)["kind"]
        older = [i for i in run_ids(db, kind, complete_only=True) if i < after]  # a sweep with a sweep
        if not older:
            raise BadInput(f"no complete {kind} run before run {after} to compare with")
        before = older[-1]
    result = History(describe_run(db, before), describe_run(db, after), notes=notes)
    old, new = _jobs(db, before), _jobs(db, after)
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a is None:
            result.changes.append(Change(*key, "new", f"furthest {b['furthest']}", regression=False))
            continue
        if b is None:
            result.changes.append(Change(*key, "gone", "not in the newer run", regression=False))
            continue
        if b["failed"] and not a["failed"]:
            result.changes.append(Change(*key, "newly failing", b["error"] or "failed", regression=True))
        elif a["failed"] and not b["failed"]:
            result.changes.append(Change(*key, "newly passing", f"furthest {b['furthest']}", regression=False))
        if _rank(b["furthest"]) != _rank(a["furthest"]):
            worse = _rank(b["furthest"]) < _rank(a["furthest"])
            result.changes.append(Change(*key, "furthest stage moved", f"{a['furthest']} -> {b['furthest']}",
                                         regression=worse))
        if a["pcc"] is not None and (b["pcc"] is None or b["pcc"] < a["pcc"] - PCC_DROP):
            result.changes.append(Change(*key, "pcc drop", f"{a['pcc']:.6f} -> "
                                         f"{'not run' if b['pcc'] is None else format(b['pcc'], '.6f')}",
                                         regression=True))
        if a["seconds"] and b["seconds"] and b["seconds"] >= TIME_FACTOR * a["seconds"] and \
                b["seconds"] - a["seconds"] >= MIN_SLOWER_S:
            result.changes.append(Change(*key, "slower", f"{a['seconds']:.1f} s -> {b['seconds']:.1f} s "
                                         f"(x{b['seconds'] / a['seconds']:.1f})", regression=False))
    return result


def series(db: sqlite3.Connection) -> dict:
    """(model, frontend, params) -> [{run, label, started, furthest, pcc, seconds}] over every run, oldest first:
    what the history page draws."""
    out: dict = {}
    for run_id, label, started, model, frontend, params, furthest, pcc, seconds in db.execute(
            "SELECT runs.id, runs.label, runs.started, model, frontend, params, furthest, pcc, seconds FROM jobs "
            "JOIN runs ON runs.id = jobs.run_id ORDER BY runs.id, jobs.id"):
        out.setdefault((model, frontend, params), []).append(
            {"run": run_id, "label": label, "started": started, "furthest": furthest, "pcc": pcc,
             "seconds": seconds})
    return out
