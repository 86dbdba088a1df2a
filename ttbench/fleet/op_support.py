"""The op support table: for each aten / ONNX op of the zoo, in how many models it appears and how far its
variants get on their own (op by op through the Tenstorrent compiler, or on the CPU with --no-tt), with the first
error; ONNX ops also show how many of ONNX's own node tests for them reach TTNN (docs/onnx_conformance.json).

Built from the sweep's rows (`ttbench sweep --ops`), which each carry the op-by-op rows of one bringup. The table
people otherwise keep by hand in spreadsheets.
"""
from __future__ import annotations

import json
import os
from typing import Optional

from ..io.markdown import md_cell
from ..records.results import FURTHEST_STAGES


def job_ops(report) -> dict:
    """What a sweep row keeps of one OpByOpReport."""
    return {"device": report.device, "compile_only": report.compile_only, "stage": report.stage,
            "ops": [{"op": r.op, "count": r.count, "furthest_stage": r.furthest_stage, "ok": r.ok,
                     "error": r.error, "location": (r.locations or [None])[0]} for r in report.rows]}


def op_support(rows: list, conformance: Optional[dict] = None) -> list:
    """Sweep rows -> one entry per op, sorted by op name. `conformance`: the ONNX conformance JSON, if any."""
    table: dict = {}
    for row in rows:
        ops = row.get("op_by_op")
        if not isinstance(ops, dict):
            continue
        for r in ops.get("ops", []):
            entry = table.setdefault(r["op"], {"op": r["op"], "models": [], "occurrences": 0, "variants": 0,
                                               "variants_through": 0, "worst_stage": None, "first_error": None})
            where = f"{row['model']}/{row['frontend']}"
            if row["model"] not in entry["models"]:
                entry["models"].append(row["model"])
            entry["occurrences"] += r["count"]
            entry["variants"] += 1
            entry["variants_through"] += bool(r["ok"])
            stage = r["furthest_stage"]
            if entry["worst_stage"] is None or FURTHEST_STAGES.index(stage) < FURTHEST_STAGES.index(
                    entry["worst_stage"]):
                entry["worst_stage"] = stage
            if not r["ok"] and entry["first_error"] is None:
                at = f" at {r['location']}" if r.get("location") else ""
                entry["first_error"] = f"{where}{at}: {r['error']}"
    by_onnx_op = {o["op"]: o for o in (conformance or {}).get("ops", [])}
    for entry in table.values():
        if entry["op"].startswith("onnx."):
            tests = by_onnx_op.get(entry["op"][len("onnx."):])
            entry["conformance"] = ({"tests": tests["tests"], "ttnn": tests["ttnn"], "passed": tests["passed"]}
                                    if tests else None)
    return sorted(table.values(), key=lambda e: e["op"])


COLUMNS = ("op", "models", "occurrences", "variants through", "worst variant reaches", "ONNX node tests to ttnn",
           "first error")


def _cells(e: dict) -> list:
    c = e.get("conformance")
    return [e["op"], f"{len(e['models'])} ({', '.join(e['models'])})", str(e["occurrences"]),
            f"{e['variants_through']}/{e['variants']}", e["worst_stage"] or "-",
            f"{c['ttnn']}/{c['tests']}" if c else "-", (e["first_error"] or "")[:300]]


def markdown(table: list) -> str:
    failing = [e for e in table if e["variants_through"] < e["variants"]]
    lines = [f"{len(table)} ops; {len(table) - len(failing)} get every variant through, {len(failing)} do not "
             "(listed first).",
             "", "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(md_cell(c) for c in _cells(e)) + " |" for e in failing + [e for e in table
                                                                                       if e not in failing]]
    return "\n".join(lines) + "\n"


def load_conformance(path: str) -> Optional[dict]:
    if not os.path.isfile(path):
        return None
    try:
        with open(path) as f:
            data = json.load(f)
    except ValueError:
        return None
    return data if isinstance(data, dict) and isinstance(data.get("ops"), list) else None
