"""The Tenstorrent compiler's own view of a TTNN program (analysis/compiler_metrics.py reads it from the perf metrics
file the compiler writes when an optimization level is asked for): per op, whether its result is sharded or spilled
to DRAM, its FLOPs and math fidelity, each tied to the program's op and source line; and the compiler's totals."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Optional

from ..core import view_method


@dataclass
class CompilerOp:
    """One op as the compiler's metrics list it, with the program op it was matched to (index -1: not matched, so
    its source line is unknown rather than guessed)."""

    op: str
    module: str  # the compiler's own location for it: `module[fc1]`, `unknown`
    index: int = -1  # the program op in the ttnn stage
    location: str = ""  # that op's source line
    sharded: Optional[bool] = None  # None: the compiler lists it among FLOP counts only
    spilled: Optional[bool] = None  # its result spilled to DRAM although it could be sharded
    flops: Optional[int] = None
    fidelity: str = ""
    flops_agree: Optional[bool] = None  # whether ttbench's own count from the op's types gives the same FLOPs


@dataclass
class CompilerMetrics:
    model: str
    optimization_level: Optional[int]
    summary_figures: dict  # the compiler's own totals (sharded_ops, dram_spilled_ops, ...)
    targets: dict  # its figures for the chip (arch, cores, DRAM bandwidth, roofline_ms, ...)
    ops: list[CompilerOp] = field(default_factory=list)

    _repr_html_ = view_method("CompilerMetrics._repr_html_", "The compiler's totals, then its ops by source line.")

    @property
    def unmatched(self) -> int:
        return sum(op.index < 0 for op in self.ops)

    def by_line(self) -> dict:
        """source line -> {"ops", "sharded", "spilled", "flops"}: the compiler's figures per line of the model
        ("(unmatched)" gathers the ops ttbench could not tie to a program op)."""
        out: dict = {}
        for op in self.ops:
            key = op.location or ("(unmatched)" if op.index < 0 else "(no location)")
            line = out.setdefault(key, {"ops": 0, "sharded": 0, "spilled": 0, "flops": 0})
            line["ops"] += 1
            line["sharded"] += bool(op.sharded)
            line["spilled"] += bool(op.spilled)
            line["flops"] += op.flops or 0
        return out

    def summary(self) -> str:
        s = self.summary_figures
        level = "?" if self.optimization_level is None else self.optimization_level
        listed = [op for op in self.ops if op.sharded is not None]
        spilled = sum(bool(op.spilled) for op in listed)
        differs = (f" (its summary counts {s['dram_spilled_ops']} spilled)"
                   if s.get("dram_spilled_ops", spilled) != spilled else "")
        lines = [f"{self.model} ttnn at optimization level {level}, the compiler's own metrics: "
                 f"{sum(bool(op.sharded) for op in listed)} of {len(listed)} shardable ops sharded, {spilled} "
                 f"spilled to DRAM{differs}"]
        for op in [o for o in self.ops if o.spilled][:5]:
            lines.append(f"  spilled: {op.op} #{op.index} at {op.location or '?'} ({op.module})")
        disagree = [o for o in self.ops if o.flops_agree is False]
        if disagree:
            lines.append(f"  {len(disagree)} ops whose FLOPs the compiler counts differently from their types "
                         f"(first: {disagree[0].op} #{disagree[0].index})")
        if self.unmatched:
            lines.append(f"  {self.unmatched} of its ops could not be tied to a program op: their lines unknown")
        for where, figures in list(self.by_line().items())[:8]:
            lines.append(f"  {where}: {figures['ops']} ops, {figures['sharded']} sharded, {figures['spilled']} "
                         f"spilled, {figures['flops']:,} FLOPs")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"model": self.model, "optimization_level": self.optimization_level,
                "summary": self.summary_figures, "targets": self.targets, "by_line": self.by_line(),
                "ops": [asdict(op) for op in self.ops]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def __str__(self) -> str:
        return self.summary()

    __repr__ = __str__
