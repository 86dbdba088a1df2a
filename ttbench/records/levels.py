"""What the compiler's optimizer changed between two optimization levels of one model (analysis/levels.py reads it
from the two TTNN programs): per source line, the ops at each level (fused activations named with their op), where
their results live, and whether the numbers held when both programs ran."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Optional

from ..core import view_method


@dataclass
class LineChange:
    """One source line (and module) of the model at both levels; counts are ops per kind and results per placement."""

    location: str  # "" when the ops carry no source line
    module: str
    ops: tuple  # (level a, level b): {"ttnn.matmul+relu": 1, ...}
    placements: tuple  # (level a, level b): {"L1 width_sharded on 1x8": 2, ...}

    def added(self) -> dict:
        return dict(Counter(self.ops[1]) - Counter(self.ops[0]))

    def removed(self) -> dict:
        return dict(Counter(self.ops[0]) - Counter(self.ops[1]))

    @property
    def changed(self) -> bool:
        return self.ops[0] != self.ops[1] or self.placements[0] != self.placements[1]

    def describe(self) -> str:
        """"added ttnn.to_memory_config; removed ttnn.relu; placement DRAM interleaved x3 -> L1 width_sharded x3"."""
        parts = []
        for verb, kinds in (("added", self.added()), ("removed", self.removed())):
            if kinds:
                parts.append(f"{verb} " + ", ".join(counted(kinds)))
        if self.placements[0] != self.placements[1]:
            parts.append("placement " + ", ".join(counted(self.placements[0])) + " -> " +
                         ", ".join(counted(self.placements[1])))
        return "; ".join(parts) or "unchanged"


def counted(counts: dict) -> list:
    """{kind: n} -> ["kind x2", ...], sorted; ["none"] when empty."""
    return [f"{k} x{n}" if n > 1 else k for k, n in sorted(counts.items())] or ["none"]


@dataclass
class LevelRun:
    """One level's program run against the golden (the interpreter: it vouches for the program, not the chip)."""

    level: int
    ok: Optional[bool]  # None: not run (refused, or not asked for)
    pcc: Optional[float]
    message: str
    produced_by: str


@dataclass
class LevelComparison:
    model: str
    levels: tuple  # (a, b)
    lines: list[LineChange] = field(default_factory=list)  # in level b's program order, then lines only a has
    op_counts: tuple = (0, 0)  # computing ops (not bookkeeping) at each level
    bounds_s: tuple = (None, None)  # the ideal-time bound at each level, where the compiler's metrics were written
    runs: list[LevelRun] = field(default_factory=list)
    errors: dict = field(default_factory=dict)  # level -> why its ttnn stage did not compile (then no lines)

    _repr_html_ = view_method("LevelComparison._repr_html_", "What the optimizer changed, line by line, and whether "
                                                              "the numbers held at both levels.")

    def changed(self) -> list:
        return [line for line in self.lines if line.changed]

    @property
    def numbers_held(self) -> Optional[bool]:
        """True when both programs ran and passed, False when either ran and failed, None when either was not run
        (the numbers are unknown, not held)."""
        oks = [r.ok for r in self.runs]
        if False in oks:
            return False
        return None if len(oks) < 2 or None in oks else True

    def numbers_line(self) -> str:
        if not self.runs:
            return "numbers: not run (compare_levels(run=False))"
        verdict = {True: "held", False: "did NOT hold", None: "unknown"}[self.numbers_held]
        each = "; ".join(f"level {r.level}: " + (f"pcc {r.pcc:.6f}" if r.pcc is not None else "not run") +
                         f" ({r.message})" for r in self.runs)
        return f"numbers {verdict}: {each} [{self.runs[0].produced_by}]"

    def summary(self) -> str:
        a, b = self.levels
        if self.errors:
            return "\n".join([f"{self.model} ttnn level {a} -> level {b}: not compared"] +
                             [f"  level {level} does not compile: {error}" for level, error in self.errors.items()])
        changed = self.changed()
        lines = [f"{self.model} ttnn level {a} -> level {b}: {self.op_counts[0]} -> {self.op_counts[1]} computing ops, "
                 f"{len(changed)} of {len(self.lines)} source lines changed"]
        if all(s is not None for s in self.bounds_s):
            lines.append(f"  ideal-time bound (not a measurement): {self.bounds_s[0] * 1e6:.2f} µs -> "
                         f"{self.bounds_s[1] * 1e6:.2f} µs")
        for line in changed[:12]:
            where = line.location or "(no location)"
            lines.append(f"  {where}{' [' + line.module + ']' if line.module else ''}: {line.describe()}")
        if len(changed) > 12:
            lines.append(f"  ... {len(changed) - 12} more lines changed (to_json has every line)")
        lines.append(f"  {self.numbers_line()}")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"model": self.model, "levels": list(self.levels), "op_counts": list(self.op_counts),
                "bounds_s": list(self.bounds_s), "numbers_held": self.numbers_held,
                "errors": {str(k): v for k, v in self.errors.items()},
                "runs": [asdict(r) for r in self.runs],
                "lines": [{**asdict(line), "changed": line.changed, "added": line.added(), "removed": line.removed(),
                           "ops": list(line.ops), "placements": list(line.placements)} for line in self.lines]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def __str__(self) -> str:
        return self.summary()

    __repr__ = __str__
