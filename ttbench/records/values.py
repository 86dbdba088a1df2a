"""What an executor computed, op by op: the one shape every executor's per-op values take (the PJRT CPU client on
the stablehlo stage, PyTorch on the FX graph, ttbench's interpreter on TTIR/TTNN, the simulator on TTNN), so the
compare room reads them all one way."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core import Op


@dataclass
class OpValues:
    stage: str  # the stage the ops are of ("ttsim": the TTNN program's ops as the simulator ran them)
    produced_by: str  # what computed the values, and so what they can vouch for
    ops: list[Op]  # the ops with at least one value, in execution order
    values: dict[int, list[np.ndarray]] = field(default_factory=dict)  # op index -> its tensor results (an op
    # with fused output activations: its value before them)
    after_activations: dict[int, tuple] = field(default_factory=dict)  # op index -> (the fused activations' kinds,
    # its value after them), for the ops that have them

    def of(self, op: Op) -> list[np.ndarray]:
        return self.values[op.index]
