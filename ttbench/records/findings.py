"""The findings record and its per-stage summary. Analyses (inplace, constants, coverage, verifier) produce them;
nothing here renders IR or knows how a finding was found."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Optional

from ..core import FindingKind, SourceLoc, StageName, human_bytes, view_method

KINDS = tuple(FindingKind)
# What one finding of each kind is (the view's legend); "min_bytes" is filled in by Findings.kind_meanings.
KIND_MEANINGS = {
    "inplace": "an op that mutates an input",
    "constant": "a tensor constant in the IR: every inlined weight, and any other of at least min_bytes",
    "location_lost": "a source line that had ops in the previous stage and has none here",
    "verifier": "the MLIR verifier rejected the stage",
    "semantic": "an op whose meaning changed between stages",
}


@dataclass
class Finding:
    kind: FindingKind
    stage: StageName
    op: Optional[str]  # op name ("aten.relu_.default", "stablehlo.constant"), None for a whole-stage finding
    location: Optional[SourceLoc]  # the user's source line, when known
    message: str
    nbytes: Optional[int] = None  # constants: bytes the device ends up holding
    details: dict = field(default_factory=dict)  # JSON-serialisable specifics (op index, lineage, shape, ...)

    def __post_init__(self):
        self.kind, self.stage = FindingKind(self.kind), StageName(self.stage)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["location"] = str(self.location) if self.location else None
        return d

    def __str__(self) -> str:
        where = f" at {self.location.short}" if self.location else ""
        return f"[{self.kind}] {self.stage}{where}: {self.message}"


# The summary's columns that fit a 120-column terminal together (the CLI's default; --wide shows all).
NARROW_SUMMARY_COLUMNS = ("stage", "status", "ops", "inplace", "verifier", "constants", "embedded_bytes",
                          "constant_bytes", "coverage", "lines_lost")


# Summary columns, in display order, with what each means (also the table legend).
SUMMARY_COLUMNS = {
    "stage": "pipeline stage",
    "status": "ok / failed / skipped",
    "ops": "ops in the stage",
    "inplace": "in-place ops (mutate an input)",
    "verifier": "MLIR verifier result",
    "constants": "tensor constants listed as findings: every inlined weight, and any other of at least min_bytes",
    "small_constants": "smaller tensor constants (scalars, shapes): counted, not listed",
    "embedded_bytes": "bytes all of them (listed and small) take in the IR (a splat is written as one element)",
    "constant_bytes": "bytes the device must hold for all of them (elements x item size, splats at full size)",
    "largest_constant": "device bytes of the largest constant",
    "weights_inlined": "share of the model's parameter+buffer bytes embedded as constants",
    "weights_inlined_bytes": "those bytes",
    "non_weight_constants": "of the listed constants, those that are not a model weight",
    "located": "ops with a user source location",
    "locatable": "ops that should have one (constants and bookkeeping ops excluded)",
    "coverage": "located / locatable",
    "lines_lost": "source lines with ops in the previous stage and none here",
}


class FindingsSummary:
    """Per-stage numbers (rows follow pipeline order)."""

    _repr_html_ = view_method("FindingsSummary._repr_html_", "The per-stage findings table with its legend.")

    def __init__(self, rows: list, min_bytes: int):
        self.rows = rows
        self.min_bytes = min_bytes

    def __getitem__(self, stage: str) -> dict:
        for row in self.rows:
            if row["stage"] == stage:
                return row
        raise KeyError(stage)

    def meanings(self) -> dict:
        """{column: what it means}, with this summary's own min_bytes written in."""
        return {c: with_min_bytes(m, self.min_bytes) for c, m in SUMMARY_COLUMNS.items()}

    def to_dataframe(self):
        import pandas as pd

        return pd.DataFrame(self.rows, columns=list(SUMMARY_COLUMNS)).set_index("stage")

    def to_dict(self) -> dict:
        return {"min_bytes": self.min_bytes, "stages": self.rows}

    def _cells(self) -> list:
        out = []
        for row in self.rows:
            out.append([_fmt(k, row.get(k)) for k in SUMMARY_COLUMNS])
        return out

    def text(self, columns=NARROW_SUMMARY_COLUMNS) -> str:
        """The table as text: by default the columns that fit a 120-column terminal; all with SUMMARY_COLUMNS."""
        header = [c for c in SUMMARY_COLUMNS if c in columns]
        cells = [[_fmt(k, row.get(k)) for k in header] for row in self.rows]
        widths = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h) for i, h in enumerate(header)]
        lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip()]
        lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    __repr__ = __str__


def _fmt(key: str, value) -> str:
    if value is None:
        return "-"
    if key in ("constant_bytes", "embedded_bytes", "largest_constant", "weights_inlined_bytes"):
        return human_bytes(value)
    if key in ("weights_inlined", "coverage"):
        return f"{value:.1%}"
    return str(value)


def with_min_bytes(meaning: str, min_bytes: int) -> str:
    """A column's or kind's meaning with the threshold it was measured with written in."""
    return meaning.replace("min_bytes", f"{human_bytes(min_bytes)} (min_bytes)")


class Findings(list):
    """A list of Finding, plus the per-stage numbers the analyses measured."""

    def __init__(self, findings, summary: FindingsSummary, repeats: Optional[dict] = None,
                 fused: Optional[dict] = None):
        super().__init__(findings)
        self._summary = summary
        self.repeats = repeats or {}  # stage -> repeats.Repeat: the run of identical blocks (layers) it holds
        self.fused = fused or {}  # stage -> {SourceLoc: fusion.FusedInto}: lines whose activation runs inside an op

    def folded(self) -> list:
        """[(finding, times)]: a finding in a repeated block after the first is counted with its twin in the first
        block (same kind and message at the same position), so 32 layers' worth reads as one line "x32"."""
        out: list = []
        at: dict = {}
        for f in self:
            r = self.repeats.get(f.stage)
            index = f.details.get("index") if isinstance(f.details, dict) else None
            if r is not None and index is not None and r.start <= index < r.end:
                key = (f.stage, f.kind, f.message, r.twin(index))
                if key in at:
                    out[at[key]][1] += 1
                    continue
                at[key] = len(out)
            out.append([f, 1])
        return [(f, n) for f, n in out]

    def summary(self) -> FindingsSummary:
        return self._summary

    def of(self, kind: Optional[str] = None, stage: Optional[str] = None) -> list:
        return [f for f in self if (kind is None or f.kind == kind) and (stage is None or f.stage == stage)]

    def kind_meanings(self) -> dict:
        """{kind: what one finding of it is}, with the min_bytes these findings were listed with."""
        return {k: with_min_bytes(KIND_MEANINGS[k], self._summary.min_bytes) for k in KINDS}

    def counts(self) -> dict:
        out = {k: 0 for k in KINDS}
        for f in self:
            out[f.kind] += 1
        return out

    def to_dict(self) -> dict:
        return {"summary": self._summary.to_dict(), "counts": self.counts(), "findings": [f.to_dict() for f in self]}

    def to_json(self, indent: int = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, default=str)

    def counts_line(self) -> str:
        """The findings of every stage together, said as such (the summary's rows count per stage)."""
        return "findings, all stages together: " + ", ".join(f"{k} {v}" for k, v in self.counts().items())

    def __repr__(self) -> str:
        return f"<Findings ({self.counts_line()})>\n{self._summary}"
