"""What the TTNN program keeps on the chip, op by op (analysis/memory.py reads it from the program itself): the
tensors live across each op, L1 per core and DRAM against the chip's limits, weights apart from activations, and a
verdict. Static: the program's own layouts and deallocations, no chip and no weights needed."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Optional

from ..core import human_bytes, view_method

# What these figures leave out, said with every report.
NOT_COUNTED = ("circular buffers and kernel scratch (the ops' own L1 use), DRAM tensors' per-channel padding, and "
               "host tensors; a bound from the program's tensors, not a measurement")


@dataclass
class OpMemory:
    index: int  # the op's index in the ttnn stage
    op: str
    location: str  # its source line, "" when not known
    l1_per_core: int  # bytes on the fullest core: every L1 tensor live across the op
    dram: int  # bytes of every DRAM tensor live across the op
    l1_weights: int  # of those, weights (parameters and what const-eval made of them)
    dram_weights: int
    live: int  # device tensors live across the op


@dataclass
class MemoryReport:
    model: str
    optimization_level: Optional[int]
    chip: dict  # tt.layouts.ChipLimits.to_dict(): arch, worker_cores, l1_per_core, dram
    ops: list[OpMemory] = field(default_factory=list)  # main's ops, in program order
    unsized: list = field(default_factory=list)  # "op #i: why" for tensors whose bytes could not be read
    produced_by: str = "ttbench's reading of the TTNN program's layouts and deallocations (static)"
    # memory(ttnn_check=True): ttnn's own figures beside the static ones ({"peak_l1", "per_core": {"cb", "l1",
    # "total"}, "produced_by"}), or {"error": why it did not run}
    ttnn_check: Optional[dict] = None

    _repr_html_ = view_method("MemoryReport._repr_html_", "The verdict, the peaks against the chip, op by op.")
    plot = view_method("MemoryReport.plot", "plot(): L1 per core and DRAM over the program, with the chip's limits "
                       "and the first op that does not fit marked.")

    def _peak(self, key: str) -> Optional[OpMemory]:
        return max(self.ops, key=lambda r: getattr(r, key)) if self.ops else None

    @property
    def peak_l1(self) -> Optional[OpMemory]:
        return self._peak("l1_per_core")

    @property
    def peak_dram(self) -> Optional[OpMemory]:
        return self._peak("dram")

    @property
    def first_overflow(self) -> Optional[tuple]:
        """(the first op whose live tensors exceed a limit, "L1" or "DRAM", bytes over), or None."""
        for row in self.ops:
            if row.l1_per_core > self.chip["l1_per_core"]:
                return row, "L1", row.l1_per_core - self.chip["l1_per_core"]
            if row.dram > self.chip["dram"]:
                return row, "DRAM", row.dram - self.chip["dram"]
        return None

    @property
    def fits(self) -> Optional[bool]:
        """True when every op's live tensors fit; False at the first that does not; None (unknown) when a tensor
        could not be sized and nothing overflowed without it."""
        if self.first_overflow is not None:
            return False
        return None if self.unsized else True

    def verdict(self) -> str:
        over = self.first_overflow
        if over is not None:
            row, kind, by = over
            where = f" at {row.location}" if row.location else ""
            have = human_bytes(self.chip["l1_per_core"] if kind == "L1" else self.chip["dram"])
            need = human_bytes(row.l1_per_core if kind == "L1" else row.dram)
            per = " per core" if kind == "L1" else ""
            return (f"does not fit: {row.op} #{row.index}{where} needs {need} of {kind}{per}, {human_bytes(by)} over "
                    f"the {self.chip['arch']}'s {have}")
        if self.unsized:
            return f"unknown: {len(self.unsized)} tensors could not be sized (first: {self.unsized[0]})"
        l1, dram = self.peak_l1, self.peak_dram
        return (f"fits: peak L1 {human_bytes(l1.l1_per_core if l1 else 0)} per core of "
                f"{human_bytes(self.chip['l1_per_core'])}, peak DRAM {human_bytes(dram.dram if dram else 0)} of "
                f"{human_bytes(self.chip['dram'])}")

    def summary(self) -> str:
        level = "?" if self.optimization_level is None else self.optimization_level
        lines = [f"{self.model} ttnn at optimization level {level} on {self.chip['arch']}: {self.verdict()}"]
        for name, row, key, weights in (("L1 per core", self.peak_l1, "l1_per_core", "l1_weights"),
                                        ("DRAM", self.peak_dram, "dram", "dram_weights")):
            if row is not None and getattr(row, key):
                where = f" at {row.location}" if row.location else ""
                lines.append(f"  peak {name}: {human_bytes(getattr(row, key))} ({human_bytes(getattr(row, weights))} "
                             f"weights) across {row.op} #{row.index}{where}")
        lines.append(f"  not counted: {NOT_COUNTED}")
        if self.ttnn_check is not None:
            lines.append(f"  {self.ttnn_check_line()}")
        return "\n".join(lines)

    def ttnn_check_line(self) -> str:
        """ttnn's own peak L1 per core beside ttbench's static one (tensors against tensors, then with CBs)."""
        check = self.ttnn_check or {}
        if "error" in check:
            return f"ttnn's check: not run: {check['error']}"
        core = check["per_core"]
        static = self.peak_l1.l1_per_core if self.peak_l1 else 0
        return (f"ttnn's check (graph capture, nothing dispatched): peak L1 per core {human_bytes(core['total'])} "
                f"(its peaks apart: tensors {human_bytes(core['l1'])}, circular buffers {human_bytes(core['cb'])}); "
                f"ttbench's static peak of the program's tensors {human_bytes(static)}" +
                (f"; ttnn-visualizer report: {check['report']}" if check.get("report") else ""))

    def to_dict(self) -> dict:
        return {"model": self.model, "optimization_level": self.optimization_level, "chip": self.chip,
                "fits": self.fits, "verdict": self.verdict(), "produced_by": self.produced_by,
                "not_counted": NOT_COUNTED, "ops": [asdict(r) for r in self.ops], "unsized": self.unsized,
                "ttnn_check": self.ttnn_check}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def __str__(self) -> str:
        return self.summary()

    __repr__ = __str__
