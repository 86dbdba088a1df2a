"""Analyses over a Bringup's stages, separate from any rendering: `analyze(b)` -> Findings.

One module per question: inplace (mutation and its lineage), constants (the constant budget), coverage
(source locations), verifier (MLIR verifier results), fusion (activations fused into another op); repeats finds
the repeated layers they are folded by. Nothing here executes a model: the semantic check, which does, is
run/semantics.py, and `tb.analyze` (pipeline.findings_of) adds it."""
from __future__ import annotations

import importlib

from ..records.findings import KINDS, Finding, Findings, FindingsSummary
from .op_kinds import NOT_COUNTED_FOR_COVERAGE

__all__ = ["analyze", "Finding", "Findings", "FindingsSummary", "KINDS", "NOT_COUNTED_FOR_COVERAGE"]


def __getattr__(name: str):
    # Lazy: the analyses read FX graphs (torch, ~2.5 s to import); `ttbench diff` and the views need only the records.
    if name == "analyze":
        return importlib.import_module(".collect", __name__).analyze
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
