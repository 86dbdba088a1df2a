"""A per-op comparison of two stages (run/stage_compare.py makes it): every compared op with its PCC against its
counterpart, the ops with none, and the first divergence."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Optional

from ..core import Op, cell_text, view_method


@dataclass
class OpMatch:
    op: Op  # the op of the later stage
    reference: Optional[Op]  # the op of the earlier stage it was compared with (None: unmatched)
    pcc: Optional[float] = None
    max_abs_error: Optional[float] = None
    layout: str = ""  # how the values were aligned: "same", "reshaped", "NCHW -> flattened NHWC", ...
    ok: bool = False
    reason: str = ""  # why unmatched
    part: str = ""  # which of the op's values: "" its own, "after relu" after its fused activations
    finding: str = ""  # a semantic finding on this op (the compiler changed what it means), said beside its PCC

    @property
    def label(self) -> str:
        """`ttnn.conv2d #69`, or `ttnn.conv2d #69 after relu` for the value after its fused activations."""
        return f"{self.op.name} #{self.op.index}" + (f" {self.part}" if self.part else "")

    def to_dict(self) -> dict:
        return {"index": self.op.index, "op": self.op.name, "part": self.part, "location": str(self.op.location or ""),
                "module": self.op.module, "reference_index": self.reference.index if self.reference else None,
                "reference_op": self.reference.name if self.reference else None, "pcc": self.pcc,
                "max_abs_error": self.max_abs_error, "layout": self.layout, "ok": self.ok, "reason": self.reason,
                "finding": self.finding}


@dataclass
class StageComparison:
    model: str
    reference_stage: str  # the earlier stage
    stage: str  # the later stage
    min_pcc: float
    reference_producer: str = ""  # what computed each side's values
    producer: str = ""
    rows: list[OpMatch] = field(default_factory=list)  # every compared op of `stage`, in execution order
    unmatched: list = field(default_factory=list)  # OpMatch (reference None) for ops with no counterpart
    reference_ops: int = 0  # ops of the earlier stage with values
    not_run: Optional[str] = None  # why nothing was compared
    seconds: float = 0.0

    _repr_html_ = view_method("StageComparison._repr_html_",
                              "The summary, then every compared op coloured by PCC, the first divergence marked.")
    plot = view_method("StageComparison.plot",
                       "plot(ax=None): PCC per compared op in execution order, divergent ops red, the threshold as a line.")

    @property
    def ok(self) -> bool:
        return self.not_run is None and all(r.ok for r in self.rows)

    @property
    def first_divergence(self) -> Optional[OpMatch]:
        return next((r for r in self.rows if not r.ok), None)

    def op_pcc(self) -> dict:
        """op index in the later stage -> its lowest PCC against the earlier stage (matched ops only; an op with
        fused activations is compared before and after them)."""
        out: dict = {}
        for r in self.rows:
            out[r.op.index] = r.pcc if r.op.index not in out else min(out[r.op.index], r.pcc)
        return out

    def worst_rows(self) -> dict:
        """op index -> its worst compared row (a diverging one first, then the lowest PCC)."""
        out: dict = {}
        for r in self.rows:
            if r.op.index not in out or (r.ok, r.pcc) < (out[r.op.index].ok, out[r.op.index].pcc):
                out[r.op.index] = r
        return out

    def summary(self) -> str:
        head = f"{self.model}: {self.reference_stage} -> {self.stage}"
        if self.not_run:
            return f"{head}: not compared: {self.not_run}"
        text = (f"{head}: {len(self.rows)} values matched and compared, {len(self.unmatched)} unmatched "
                f"(pcc threshold {self.min_pcc}), {self.seconds:.1f}s\n  {self.reference_stage}: "
                f"{self.reference_producer}\n  {self.stage}: {self.producer}")
        d = self.first_divergence
        if not self.rows:
            reasons = sorted({m.reason for m in self.unmatched})
            text += (f"\nnothing compared: no op of {self.stage} has a counterpart in {self.reference_stage}, so "
                     f"nothing is said about divergence" + (f" ({'; '.join(reasons[:3])})" if reasons else ""))
        elif d is None and not any(r.max_abs_error for r in self.rows):
            text += f"\nno op diverges (pcc threshold {self.min_pcc}): every compared value is the same"
        elif d is None:
            worst = max(self.rows, key=lambda r: (r.max_abs_error or 0.0))
            text += (f"\nno op diverges (pcc threshold {self.min_pcc}); the error is largest at {worst.label}"
                     f"{' at ' + worst.op.location.short if worst.op.location else ''}: max abs error "
                     f"{cell_text(worst.max_abs_error)}, pcc {cell_text(worst.pcc)}")
        else:
            assert d.reference is not None  # a compared row always has its reference
            where = f" at {d.op.location.short}" if d.op.location else ""
            module = f" (module {d.op.module})" if d.op.module else ""
            text += (f"\nfirst divergence: {d.label}{where}{module}: pcc {cell_text(d.pcc)}, "
                     f"max abs error {cell_text(d.max_abs_error)} against {d.reference.name} "
                     f"#{d.reference.index} of {self.reference_stage}")
        return text

    def to_dict(self) -> dict:
        d = self.first_divergence
        return {"model": self.model, "reference_stage": self.reference_stage, "stage": self.stage,
                "min_pcc": self.min_pcc, "reference_producer": self.reference_producer, "producer": self.producer,
                "not_run": self.not_run, "ok": self.ok, "seconds": self.seconds,
                "first_divergence": d.to_dict() if d else None,
                "ops": [r.to_dict() for r in self.rows], "unmatched": [r.to_dict() for r in self.unmatched]}

    def to_json(self, indent: int = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, default=str)

    def to_dataframe(self):
        import pandas as pd

        return pd.DataFrame([r.to_dict() for r in self.rows + self.unmatched])

    def __repr__(self) -> str:
        return f"<StageComparison {self.summary()}>"
