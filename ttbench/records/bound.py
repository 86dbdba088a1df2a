"""An ideal-time bound for the TTNN program, op by op (analysis/bound.py makes it): each op's FLOPs at its math
fidelity's peak on the whole chip against the bytes it moves at DRAM bandwidth, whichever is longer. A bound, never
a measurement: the chip would need perfect overlap, every core busy and no L1 traffic to reach it."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Optional

from ..core import view_method

WHAT_IT_IS = ("an ideal-time bound, not a measurement: FLOPs at the math fidelity's peak on every core, DRAM "
              "bytes at the chip's DRAM bandwidth, whichever is longer, summed; L1 traffic, dispatch, and the "
              "kernels' real efficiency are not modelled (ttbench has no timing model of the chip)")


@dataclass
class OpBound:
    index: int
    op: str
    location: str
    flops: int  # matmul/linear: 2·M·N·K; conv2d: 2·outputs·(C_in/groups)·kh·kw; others: one per result element
    fidelity: str  # the math fidelity whose peak it is held to ("default": the compiler's stated peak)
    dram_bytes: int  # operands and results held in DRAM, tile-padded
    compute_s: float
    memory_s: float

    @property
    def bound_s(self) -> float:
        return max(self.compute_s, self.memory_s)

    @property
    def bound_by(self) -> str:
        return "compute" if self.compute_s >= self.memory_s else "DRAM"


@dataclass
class BoundReport:
    model: str
    optimization_level: Optional[int]
    peaks: dict  # the compiler's figures: flops_by_fidelity, peak_flops (default), dram_bytes_per_s
    ops: list[OpBound] = field(default_factory=list)
    compiler_roofline_s: Optional[float] = None  # the compiler's own `roofline_ms` (matmul-like ops only), in s
    unsized: int = 0  # tensors whose bytes could not be read: left out, so the bound is looser (still a bound)

    _repr_html_ = view_method("BoundReport._repr_html_", "The model's bound, then op by op, longest first.")

    @property
    def total_s(self) -> float:
        return sum(op.bound_s for op in self.ops)

    def summary(self) -> str:
        level = "?" if self.optimization_level is None else self.optimization_level
        compute = sum(op.bound_by == "compute" for op in self.ops)
        lines = [f"{self.model} ttnn at optimization level {level}: ideal-time bound {self.total_s * 1e6:.2f} µs over "
                 f"{len(self.ops)} ops ({compute} compute-bound, {len(self.ops) - compute} DRAM-bound)"]
        if self.compiler_roofline_s is not None:
            lines.append(f"  the compiler's own roofline (its matmul-like ops): {self.compiler_roofline_s * 1e6:.2f} µs")
        if self.unsized:
            lines.append(f"  {self.unsized} tensors could not be sized and moved no bytes here: a looser bound")
        for op in sorted(self.ops, key=lambda o: -o.bound_s)[:5]:
            where = f" at {op.location}" if op.location else ""
            lines.append(f"  {op.bound_s * 1e6:8.3f} µs  {op.op} #{op.index}{where} ({op.bound_by}-bound)")
        lines.append(f"  {WHAT_IT_IS}")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"model": self.model, "optimization_level": self.optimization_level, "peaks": self.peaks,
                "total_s": self.total_s, "compiler_roofline_s": self.compiler_roofline_s, "unsized": self.unsized,
                "what_it_is": WHAT_IT_IS,
                "ops": [{**asdict(op), "bound_s": op.bound_s, "bound_by": op.bound_by} for op in self.ops]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def __str__(self) -> str:
        return self.summary()

    __repr__ = __str__
