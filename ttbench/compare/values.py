"""One value against its reference: PCC, max abs/rel error, allclose, and what makes it fail."""
from __future__ import annotations

from typing import Optional

import numpy as np

from ..records.results import OutputCheck


def pcc(actual, expected, atol: float = 1e-8, rtol: float = 1e-5) -> float:
    """Pearson correlation of the flattened tensors. Where it is undefined (either side constant: one value, a
    mask), 1.0 when the two are allclose with `atol` and `rtol` (the asking comparison's tolerances), else 0.0."""
    a = np.asarray(actual, dtype=np.float64).ravel()
    e = np.asarray(expected, dtype=np.float64).ravel()
    if a.shape != e.shape:
        return 0.0
    if not (np.isfinite(a).all() and np.isfinite(e).all()):
        same = np.array_equal(np.nan_to_num(a), np.nan_to_num(e)) and np.array_equal(np.isnan(a), np.isnan(e))
        return 1.0 if same else 0.0
    if a.size == 0:
        return 1.0
    if np.ptp(a) == 0 or np.ptp(e) == 0:  # no variance (a mean's rounding would fake some)
        return 1.0 if np.allclose(a, e, atol=atol, rtol=rtol) else 0.0
    da, de = a - a.mean(), e - e.mean()
    denom = np.sqrt((da * da).sum() * (de * de).sum())
    return float(np.clip((da * de).sum() / denom, -1.0, 1.0))


def compare(actual, expected, atol: float, rtol: float, min_pcc: float) -> OutputCheck:
    a = np.asarray(actual)
    e = np.asarray(expected)
    if a.shape != e.shape:
        return {"ok": False, "shape": list(e.shape), "actual_shape": list(a.shape), "pcc": 0.0,
                "max_abs_error": None, "max_rel_error": None, "allclose": False,
                "error": f"shape {list(a.shape)} != golden {list(e.shape)}"}
    a64, e64 = a.astype(np.float64), e.astype(np.float64)
    same = (a64 == e64) | (np.isnan(a64) & np.isnan(e64))  # equal infinities (attention masks) are no error
    with np.errstate(invalid="ignore"):
        diff = np.where(same, 0.0, np.abs(a64 - e64))
    max_abs = float(diff.max()) if diff.size else 0.0
    max_rel = float((diff / np.maximum(np.abs(e64), 1e-12)).max()) if diff.size else 0.0
    allclose = bool(np.allclose(a64, e64, atol=atol, rtol=rtol, equal_nan=True))
    p = pcc(a64, e64, atol, rtol)
    return {"ok": bool(p >= min_pcc and allclose), "shape": list(e.shape), "dtype": str(e.dtype),
            "pcc": p, "max_abs_error": max_abs, "max_rel_error": max_rel, "allclose": allclose}


def mismatch(check: OutputCheck, min_pcc: float) -> str:
    """Why a check that is not ok failed, in one phrase: its own error (a shape), a PCC below the threshold, or
    values that are not allclose."""
    pcc_value = check.get("pcc")
    return check.get("error") or (f"pcc {pcc_value:.6f} below {min_pcc}" if pcc_value is not None and pcc_value < min_pcc
                                  else "not allclose")


def difference_beyond(a, b, rtol: float, atol: float) -> Optional[float]:
    """None when `a` and `b` have one shape and are allclose (NaNs equal); else their max abs difference (NaN when
    the shapes differ)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape == b.shape and np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True):
        return None
    if a.shape != b.shape or not a.size:
        return float("nan")
    return float(np.nanmax(np.abs(a.astype(np.float64) - b.astype(np.float64))))


def onnx_backend_mismatch(actual, expected, rtol: float, atol: float) -> Optional[str]:
    """None when `actual` is what ONNX's backend test accepts for `expected` (allclose with the test's tolerances
    for floats, equality otherwise); else what differs."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return f"shape {list(actual.shape)}, expected {list(expected.shape)}"
    if actual.dtype != expected.dtype:
        return f"element type {actual.dtype}, expected {expected.dtype}"
    if expected.dtype.kind in "fc":
        if np.allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True):
            return None
        with np.errstate(invalid="ignore"):
            worst = float(np.nanmax(np.abs(actual.astype(np.float64) - expected.astype(np.float64))))
        return f"values differ (max abs error {worst:.3g}, rtol {rtol:g}, atol {atol:g})"
    return None if np.array_equal(actual, expected) else "values differ"
