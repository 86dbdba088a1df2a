"""Which documented reading of an op the source's own value matches (the semantic check, run/semantics.py, measures
each reading's max |error| against the value PyTorch or onnxruntime computes; this decides)."""
from __future__ import annotations

from typing import Optional

# An error this far below the documented reading's is "the other reading matches".
CLEARLY_CLOSER = 10.0


def other_reading(errors: dict, documented: str, reference_scale: float) -> Optional[str]:
    """The reading the source matches when it is clearly not the documented one; None when the documented reading
    holds (within float32 rounding of values of `reference_scale`, or no other reading is clearly closer).
    `errors`: reading -> max |error| against the source's value."""
    tolerance = 2e-6 * max(1.0, reference_scale)  # float32 rounding stays well below
    best = min(errors, key=lambda name: errors[name])
    if errors[documented] <= tolerance or best == documented or errors[best] * CLEARLY_CLOSER > errors[documented]:
        return None
    return best
