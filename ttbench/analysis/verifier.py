"""The MLIR verifier's result per stage (recorded by the stage itself), as findings with op and source line."""
from __future__ import annotations

import re

from ..core import FindingKind, MLIR_STAGES
from ..ir.locations import LocTable, user_frame
from ..records.findings import Finding

_ERROR_RE = re.compile(r"^error: (.*?): '([\w.$]+)' op (.*)$", re.M)


def _location(where: str):
    """A diagnostic's location (`"file":8:0`, `callsite(...)`, `loc(...)`) -> the user's frame."""
    body = where[4:-1] if where.startswith("loc(") and where.endswith(")") else where
    chain = LocTable("").frames(body)
    return user_frame(chain) or (chain[0] if chain else None)


def analyze_verifier(bringup):
    """-> (findings, {stage: {"verifier": "ok" | "failed" | "not checked"}})."""
    findings, columns = [], {}
    for stage in bringup.stages.values():
        if not stage.ok or stage.name not in MLIR_STAGES:
            continue
        if "verifier" not in stage.meta:  # TT stages come back as text from the plugin, which verified them
            columns[stage.name] = {"verifier": "not checked"}
            continue
        error = stage.meta["verifier"]
        columns[stage.name] = {"verifier": "failed" if error else "ok"}
        if not error:
            continue
        matches = _ERROR_RE.findall(error)
        for where, op, what in matches:
            findings.append(Finding(kind=FindingKind.VERIFIER, stage=stage.name, op=op, location=_location(where),
                                    message=f"'{op}' op {what.strip()}", details={"diagnostic": error[:2000]}))
        if not matches:
            findings.append(Finding(kind=FindingKind.VERIFIER, stage=stage.name, op=None, location=None,
                                    message=error.splitlines()[-1][:300], details={"diagnostic": error[:2000]}))
    return findings, columns
