"""Where the TTNN program puts each op's result (analysis/placement.py reads it from the program's layouts): the
buffer, interleaved or sharded, the core grid, by op and source line, at the optimization level it was compiled
at. What the program states, read without a chip."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Optional

from ..core import view_method


@dataclass
class OpPlacement:
    index: int  # the op's index in the ttnn stage
    op: str
    location: str  # its source line, "" when not known
    module: str  # its module path, "" when not known
    placement: str  # "L1 width_sharded on 1x2", "DRAM interleaved", "host"
    buffer: str  # "dram", "l1", "system_memory"
    memory_layout: str  # "interleaved", "width_sharded", "height_sharded", "block_sharded", ""
    grid: list  # cores, [rows, columns]
    const_eval: bool  # in a const-eval function (run once, on the weights)


@dataclass
class PlacementReport:
    model: str
    optimization_level: Optional[int]  # the level the ttnn stage was compiled at (None: not recorded)
    ops: list[OpPlacement] = field(default_factory=list)  # ops with a device result, in program order
    unread: list = field(default_factory=list)  # "op #i: why" for results whose layout could not be read

    _repr_html_ = view_method("PlacementReport._repr_html_", "The placement table: counts, then op by op.")

    def counts(self) -> dict:
        """placement label -> ops, most first."""
        found: dict = {}
        for p in self.ops:
            found[p.placement] = found.get(p.placement, 0) + 1
        return dict(sorted(found.items(), key=lambda kv: (-kv[1], kv[0])))

    @property
    def sharded(self) -> int:
        return sum(p.memory_layout.endswith("_sharded") for p in self.ops)

    @property
    def in_l1(self) -> int:
        return sum(p.buffer == "l1" for p in self.ops)

    def summary(self) -> str:
        level = "?" if self.optimization_level is None else self.optimization_level
        head = (f"{self.model} ttnn at optimization level {level}: {len(self.ops)} op results on the device, "
                f"{self.in_l1} in L1 ({self.sharded} sharded)")
        lines = [head] + [f"  {n:>5}  {label}" for label, n in self.counts().items()]
        if self.unread:
            lines.append(f"  {len(self.unread)} results whose layout ttbench could not read (first: "
                         f"{self.unread[0]}): not counted")
        return "\n".join(lines)

    def by_line(self) -> dict:
        """source line -> placement label -> ops: where the optimizer put each line's work."""
        out: dict = {}
        for p in self.ops:
            line = out.setdefault(p.location or "(no location)", {})
            line[p.placement] = line.get(p.placement, 0) + 1
        return out

    def to_dict(self) -> dict:
        return {"model": self.model, "optimization_level": self.optimization_level, "counts": self.counts(),
                "ops": [asdict(p) for p in self.ops], "unread": self.unread}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def __str__(self) -> str:
        return self.summary()

    __repr__ = __str__
