"""Analyses over a Bringup's stages, separate from any rendering: `analyze(b)` -> Findings.

One module per question: inplace (mutation and its lineage), constants (the constant budget), coverage
(source locations), verifier (MLIR verifier results), semantics (a TTNN op whose meaning changed, proved by
the interpreter); repeats finds the repeated layers they are folded by."""
from __future__ import annotations

from .constants import DEFAULT_MIN_BYTES, analyze_constants
from .coverage import analyze_coverage
from .findings import KINDS, SUMMARY_COLUMNS, Finding, Findings, FindingsSummary
from .inplace import analyze_inplace
from .op_kinds import NOT_COUNTED_FOR_COVERAGE
from .repeats import stage_repeats
from .semantics import analyze_semantics
from .verifier import analyze_verifier

__all__ = ["analyze", "Finding", "Findings", "FindingsSummary", "KINDS", "NOT_COUNTED_FOR_COVERAGE"]


def analyze(bringup, min_bytes: int = DEFAULT_MIN_BYTES) -> Findings:
    """Every finding of every stage, with the per-stage summary (constants below `min_bytes` that are not
    weights are counted but not listed)."""
    findings, columns = [], {name: {} for name in bringup.stages}
    for run in (analyze_inplace, analyze_verifier, lambda b: analyze_constants(b, min_bytes), analyze_coverage,
                analyze_semantics):
        found, cols = run(bringup)
        findings.extend(found)
        for stage, values in cols.items():
            columns[stage].update(values)
    rows = []
    for name, stage in bringup.stages.items():
        status = "ok" if stage.ok else ("skipped" if (stage.error or "").startswith("skipped") else "failed")
        rows.append({"stage": name, "status": status, "ops": len(stage.ops), **columns[name]})
    return Findings(findings, FindingsSummary(rows, min_bytes), stage_repeats(bringup))
