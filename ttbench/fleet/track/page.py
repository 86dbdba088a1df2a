"""The tracker's status page: one Document (status_page) written as status.md and status.html, status.json beside
them, the failure groups' reproductions in repros/ and, per architecture, the commands that bring its jobs up
again and write every stage's file (jobs/)."""
from __future__ import annotations

import json
import os
import re
import shlex
import time
from dataclasses import asdict
from typing import Optional

from ...core import PCC_STAGES, PROGRAM_STAGES, human_seconds
from ...io.atomic import replace_folder, write_text_atomic
from ...records.document import Document, Link, Section, Table
from . import statuses as st
from ...io.markdown import document_markdown
from ...render.document import document_html


def model_rows(result) -> list:
    """One row per architecture: furthest stage per frontend, PCC per stage (export), seconds, the status per
    frontend, the failure and its group's reproduction (a path under repros/)."""
    repros = {job: g.repro_file or g.repro for g in result.groups if g.repro for job in g.jobs}
    by_model: dict = {}
    for r in result.rows:
        entry = by_model.setdefault(r["model"], {"model": r["model"], "furthest": {}, "pcc": {}, "seconds": 0.0,
                                                 "failures": [], "statuses": {}, "repros": [], "carried": None,
                                                 "jobs": []})
        entry["furthest"][r["frontend"]] = r.get("furthest") or "-"
        entry["jobs"].append(r)
        if r.get("track_status"):
            entry["statuses"][r["frontend"]] = r["track_status"]
        repro = repros.get(f"{r['model']}/{r['frontend']}")
        if repro and repro not in entry["repros"]:
            entry["repros"].append(repro)
        entry["seconds"] += float(r.get("seconds") or 0)
        entry["carried"] = entry["carried"] or r.get("carried_over")
        entry["resumed"] = entry.get("resumed") or bool(r.get("resumed") and not r.get("carried_over"))
        if r["frontend"] == "export":
            entry["pcc"] = {s: (r.get("stage_pcc") or {}).get(s) for s in PCC_STAGES}
            entry["notes"] = r.get("stage_notes") or {}
            if r.get("level"):
                entry["level"] = r["level"]
        if r.get("failed_stage") or r.get("run_ok") is False:
            entry["failures"].append({"frontend": r["frontend"], "stage": r.get("failed_stage") or "run",
                                      "error": (r.get("error") or "")[:300], "verdict": r.get("verdict")})
        elif r.get("track_status") == st.REFUSED:  # what the interpreter lacks, said where failures are
            entry["failures"].append({"frontend": r["frontend"], "stage": st.REFUSED,
                                      "error": (r.get("status_detail") or "")[:300], "verdict": None})
        elif r.get("incorrect"):
            wrong = r["incorrect"]
            where = (f"first divergence from {wrong['earlier']} at {wrong['op']} ({wrong.get('location') or '?'})"
                     if wrong.get("op") else wrong.get("verdict", ""))
            entry["failures"].append({"frontend": r["frontend"], "stage": f"{wrong['stage']} (incorrect result)",
                                      "error": f"{(r.get('stage_notes') or {}).get(wrong['stage'], '')}; {where}"[:300],
                                      "verdict": r.get("verdict")})
    return list(by_model.values())


def counts(result) -> dict:
    furthest: dict = {}
    for r in result.rows:
        key = f"{r['frontend']}: {r.get('furthest') or 'nothing'}"
        furthest[key] = furthest.get(key, 0) + 1
    verdicts: dict = {}
    for r in result.rows:
        if r.get("verdict"):
            verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
    statuses: dict = {}
    for r in result.rows:
        statuses[r.get("status") or "?"] = statuses.get(r.get("status") or "?", 0) + 1
    # how many rows that reach a TT stage got a PCC for it (the rest: the interpreter refused, said per row)
    measured = {stage: [sum(1 for r in result.rows if (r.get("ops") or {}).get(stage)
                            and (r.get("stage_pcc") or {}).get(stage) is not None),
                        sum(1 for r in result.rows if (r.get("ops") or {}).get(stage))] for stage in PROGRAM_STAGES}
    track_statuses = {s: n for s in st.STATUSES if (n := sum(r.get("track_status") == s for r in result.rows))}
    carried = sorted({r["carried_over"] for r in result.rows if r.get("carried_over")})
    return {"jobs": len(result.rows), "track_statuses": track_statuses,
            "carried_over": sum(bool(r.get("carried_over")) for r in result.rows), "carried_from": carried,
            "resumed": sum(bool(r.get("resumed")) and not r.get("carried_over") for r in result.rows),
            "furthest": dict(sorted(furthest.items())), "verdicts": verdicts,
            "groups": len(result.groups), "statuses": dict(sorted(statuses.items())), "pcc_measured": measured}


def _timing(result, c: dict) -> str:
    if result.seconds is None:
        again = "triaged again" if result.triaged else "its page written again"
        part = "" if result.complete else (f", which stopped part way (the jobs it finished, of the whole "
                                           f"tracker's {result.whole or '?'})")
        return f"{c['jobs']} jobs of track run {result.run_id}{part}, {again} (their wall time was not recorded)."
    carried = (f", {c['carried_over']} of them carried over from run(s) {', '.join(map(str, c['carried_from']))} "
               "(model, options, ttbench code and the packages of every stage they reached unchanged: not run again)"
               if c["carried_over"] else "")
    resumed = (f"; {c['resumed']} resumed at the TT compile from their stages up to StableHLO, kept by an earlier "
               "run (those stages' packages unchanged: only the TT stages ran)" if c["resumed"] else "")
    return f"{c['jobs']} jobs in {human_seconds(result.seconds)} ({result.jobs} at a time){carried}{resumed}."


def _failures(result, c: dict) -> str:
    if not result.triaged:  # never "none": the failures are there, only not told apart
        failed = sum(v for k, v in c["track_statuses"].items() if k != st.PASSED)
        return (f"Failures: {failed} jobs, not triaged (--no-triage): none told apart as ours or upstream, no "
                "groups, no reproductions.")
    return "Failures: " + (", ".join(f"{v} {k}" for k, v in c["verdicts"].items()) or "none") \
        + f", in {c['groups']} groups."


def _pcc(value) -> str:
    return "-" if value is None else f"{value:.6f}"


def status_page(result) -> Document:
    """The status page, once, for status.md and status.html alike."""
    c = counts(result)
    summary = [
        f"Regenerate with make track. Taken {time.strftime('%Y-%m-%d', time.gmtime())} with "
        + ", ".join(f"{k} {v}" for k, v in result.versions.items() if v) + ".",
        _timing(result, c) + (f" Triage {human_seconds(result.triage_seconds)}." if result.triaged else "")
        + " Furthest stage: " + "; ".join(f"{k} {v}" for k, v in c["furthest"].items()) + ".",
        "Status per job: " + ", ".join(f"{v} {k}" for k, v in c["track_statuses"].items()) + ".",
        _failures(result, c) + " Statuses: " + ", ".join(f"{v} {k}" for k, v in c["statuses"].items())
        + ". A TT program that runs and does not match PyTorch is an incorrect result, never a pass.",
        "PCC measured for " + "; ".join(f"{stage.upper()} {got} of {reached} jobs that reach it"
                                        for stage, (got, reached) in c["pcc_measured"].items())
        + " (the others: the interpreter refused, said in each row).",
        *([st.expected_text(result.judged, result.expected_path or "")] if result.judged is not None else []),
        "PCC per stage is each stage's program run on the CPU against PyTorch eager: StableHLO on the PJRT CPU "
        "client; TTIR and TTNN in ttbench's interpreter of the compiler's program (it checks the program, not the "
        "chip's kernels). Compile-only: no Tenstorrent chip ran anything."]
    projection = Section("Projection", [
        f"The whole tracker ({result.whole or len(result.rows)} jobs) at this run's mean measured time per job "
        + ("(triage included)" if result.triaged else "(no triage: this run had none)")
        + f", spread over N nodes of {result.jobs} job slots each (never below the longest job):"],
        table=Table(("nodes", "wall time"), [[str(n), human_seconds(s)] for n, s in result.projection()]))
    groups = Table(("#", "verdict", "stage", "op", "jobs", "message", "reproduction", "how it was decided"),
                   [[str(i + 1), g.verdict, g.stage, g.op or "-",
                     f"{len(g.jobs)}: {', '.join(g.jobs[:6])}" + (" ..." if len(g.jobs) > 6 else ""),
                     g.example[:300], _reproduction(g), g.why] for i, g in enumerate(result.groups)])
    models = model_rows(result)
    return Document("Model tracker status", [
        Section("", summary), projection, Section("History", code=result.history or "-"),
        Section("Failure groups", table=groups),
        Section("Architectures", [
            "One row per architecture; its status is its worst job's (worst first: " + ", ".join(st.STATUSES)
            + "). Click a column's header to sort, type in the box to filter. An architecture's name opens the "
            "commands that bring its jobs up again, each writing every stage's file (IR, manifest, report); the "
            "reproduction column opens its failure group's minimal reproduction."],
            table=architecture_table(models, error_chars=200, scripts=job_scripts(models, result.tt)))])


def _reproduction(group):
    state = {True: "reproduces", False: "does not reproduce", None: ""}[group.reproduces]
    text = " ".join(t for t in (state, group.repro_note) if t)
    if not group.repro:
        return text or "-"
    return Link(f"{group.repro}" + (f" ({text})" if text else ""), f"repros/{group.repro}")


def markdown(result) -> str:
    return document_markdown(status_page(result))


def level_cell(level: dict) -> str:
    """One architecture at the other optimization level: "fails: <why>", or what the optimizer sharded and the
    program's PCC in the interpreter ("not run" with why where it did not execute)."""
    if not level["ok"]:
        return f"fails: {level['error'][:160]}"
    placed = (f"{level['sharded']} of {level['results']} results sharded" if "sharded" in level else
              "placement unread")
    if level.get("pcc") is not None:
        return f"{placed}; pcc {level['pcc']:.6f}" + ("" if level.get("run_ok") else " (does not match)")
    return f"{placed}; pcc not run" + (f": {level['note'][:120]}" if level.get("note") else "")


STATUS_COLOURS = {st.TTBENCH_ERROR: "#f4c7f4", st.FRONTEND: "#f8c8c8", st.TORCH_MLIR: "#f9d9b8",
                  st.TT_COMPILER: "#f9ecb0", st.INCORRECT: "#f6b0b0", st.REFUSED: "#dde3ee", st.PASSED: "#cdeccd"}


JOBS_FOLDER = "jobs"  # beside the pages: one script per architecture (job_scripts)
_FRONTENDS = ("export", "onnx", "dynamo")  # the bringup's own choices: a stored row's other text is not a frontend


def job_command(row: dict, tt: bool) -> str:
    """The command that brings one job up again as the tracker ran it and writes every stage it reaches (IR,
    manifest.json, report.html) into a folder named after it; it goes on to what the job's status turns on: the
    first op where a stage stops matching (an incorrect result), or the TTNN program in ttbench's interpreter."""
    model, frontend = str(row.get("model") or "?"), row.get("frontend")
    frontend = frontend if frontend in _FRONTENDS else "export"
    folder = f"{_slug(model)}-{frontend}"
    words = ["ttbench", "bringup", model, "--frontend", frontend, "--out", folder]
    wrong = row.get("incorrect") if isinstance(row.get("incorrect"), dict) else None
    if not tt:
        words += ["--no-tt", "--run", "cpu"]
    elif wrong and wrong.get("stage") in PCC_STAGES and wrong.get("earlier") in PCC_STAGES:
        words += ["--compare", f"{wrong['earlier']},{wrong['stage']}"]
    elif (row.get("ops") or {}).get("ttnn"):
        words += ["--run", "cpu", "--stage", "ttnn"]
    return " ".join(shlex.quote(w) for w in words)


def _slug(model: str) -> str:
    """A file name for a model name (hf/bert -> hf_bert): nothing of a stored name can lead out of jobs/."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", model).strip("._-")[:120] or "model"


def job_scripts(models: list, tt: bool) -> dict:
    """{architecture: (its script's name under jobs/, the script)}: the commands of its jobs, one per frontend."""
    scripts, taken = {}, set()
    for m in models:
        name = base = _slug(m["model"])
        n = 1
        while name in taken:  # two stored names that make the same slug each keep a script of their own
            n += 1
            name = f"{base}-{n}"
        taken.add(name)
        lines = ["#!/bin/sh", f"# {_comment(m['model'])}: its tracker jobs again, each writing every stage it "
                 "reaches into the folder named after it (--out)"]
        for r in m["jobs"]:
            lines += [f"# {_comment(r.get('frontend'))}: {_comment(r.get('track_status') or '?')}",
                      job_command(r, tt)]
        scripts[m["model"]] = (f"{name}.sh", "\n".join(lines) + "\n")
    return scripts


def _comment(text) -> str:
    """A stored text for a shell comment: one line, nothing that ends the comment."""
    return " ".join(str(text).split())[:200]


def architecture_table(models: list, error_chars: int, scripts: Optional[dict] = None) -> Table:
    """The architectures' table: a furthest-stage column per frontend the run took (export always, onnx and
    dynamo where any row has them), the status (rows coloured by it), the reproduction linked."""
    taken = {f for m in models for f in m["furthest"]}
    shown = ["export"] + [f for f in ("onnx", "dynamo") if f in taken]
    levels = sorted({m["level"]["level"] for m in models if m.get("level")}, key=str)
    level_columns = tuple(f"ttnn level {level}" for level in levels)
    header = ("model", "status", *shown, *(f"pcc {s}" for s in PCC_STAGES), *level_columns, "seconds", "failure",
              "reproduction")
    rows, tags = [], []
    for m in models:
        status = m.get("statuses") or {}
        tags.append(min(status.values(), key=st.rank) if status else None)
        repro: object = "-"
        if m.get("repros"):
            repro = Link(m["repros"][0], f"repros/{m['repros'][0]}")
        carried = f" (carried over from run {m['carried']})" if m.get("carried") else \
            " (TT stages rerun from kept StableHLO)" if m.get("resumed") else ""
        script = (scripts or {}).get(m["model"])
        name: object = Link(m["model"] + carried, f"{JOBS_FOLDER}/{script[0]}") if script else m["model"] + carried
        rows.append([name, tags[-1] or "-", *(m["furthest"].get(f, "-" if f == "export" else "")
                                                         for f in shown),
                     *(_pcc(m["pcc"].get(s)) for s in PCC_STAGES),
                     *(level_cell(m.get("level")) if m.get("level", {}).get("level") == level else "-"
                       for level in levels),
                     f"{m['seconds']:.0f}",
                     "; ".join(f"{f['frontend']} {f['stage']}" + (f" ({f['verdict']})" if f["verdict"] else "")
                               + f": {f['error'][:error_chars]}" for f in m["failures"]), repro])
    return Table(header, rows, interactive=True, row_tags=tags, tag_colours=STATUS_COLOURS)


# What `ttbench track --out` writes besides repros/, and how its status.json says so (cli: check_page_folder)
MADE_BY = "ttbench track"
PAGES = ("status.md", "status.html", "status.json")
PAGE_KEYS = ("run", "versions", "counts", "seconds", "triage_seconds", "jobs_at_once", "projection", "history",
             "groups", "rows")  # a status.json written before `made_by`


def write(result, out: str) -> list:
    os.makedirs(out, exist_ok=True)
    data = {"made_by": MADE_BY, "run": result.run_id, "versions": result.versions, "counts": counts(result), "seconds": result.seconds,
            "triage_seconds": result.triage_seconds if result.triaged else None, "jobs_at_once": result.jobs,
            "projection": [{"nodes": n, "seconds": round(s, 1)} for n, s in result.projection()],
            "history": result.history, "groups": [asdict(g) for g in result.groups], "rows": result.rows}
    shown = status_page(result)
    scripts = dict(job_scripts(model_rows(result), result.tt).values())
    return [replace_folder(os.path.join(out, JOBS_FOLDER), scripts),
            write_text_atomic(os.path.join(out, "status.md"), document_markdown(shown)),
            write_text_atomic(os.path.join(out, "status.html"), document_html(shown)),
            write_text_atomic(os.path.join(out, "status.json"), json.dumps(data, indent=1, default=str) + "\n")]
