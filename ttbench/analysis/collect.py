"""Every analysis over a Bringup's stages, in one call: `analyze(b)` -> Findings."""
from __future__ import annotations

from typing import Optional

from ..progress import bar, in_notebook
from .constants import DEFAULT_MIN_BYTES, analyze_constants
from .coverage import analyze_coverage
from ..records.findings import Findings, FindingsSummary
from .fusion import analyze_fusion
from .inplace import analyze_inplace
from .repeats import stage_repeats
from .verifier import analyze_verifier


def analyze(bringup, min_bytes: int = DEFAULT_MIN_BYTES, running: Optional[dict] = None) -> Findings:
    """Every finding of every stage, with the per-stage summary (constants below `min_bytes` that are not
    weights are counted but not listed). `running`: further steps by name, each b -> (findings, columns), that
    execute the model (they live in run/: nothing here runs one); the pipeline gives the semantic check."""
    findings: list = []
    columns: dict = {name: {} for name in bringup.stages}
    fused = analyze_fusion(bringup)  # read by the in-place lineage and the location coverage alike
    steps = {"in-place ops": lambda b: analyze_inplace(b, fused), "verifier": analyze_verifier,
             "constants": lambda b: analyze_constants(b, min_bytes), "locations": lambda b: analyze_coverage(b, fused),
             **(running or {})}
    # seconds on a large model (a transformer's ONNX): a notebook shows which analysis it is in
    with bar(len(steps), "findings", enabled=in_notebook()) as shown:
        for what, run in steps.items():
            shown.set_postfix_str(what)
            found, cols = run(bringup)
            findings.extend(found)
            for stage, values in cols.items():
                columns[stage].update(values)
            shown.update(1)
    rows = []
    for name, stage in bringup.stages.items():
        status = "ok" if stage.ok else ("skipped" if (stage.error or "").startswith("skipped") else "failed")
        rows.append({"stage": name, "status": status, "ops": len(stage.ops), **columns[name]})
    return Findings(findings, FindingsSummary(rows, min_bytes), stage_repeats(bringup), fused)
