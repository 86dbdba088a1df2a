"""Two stages' values of one op, in whichever layout they differ by: the best alignment of the reference to the
value (same, reshaped, NCHW against TTNN's flattened NHWC), its PCC and max abs error, and whether it agrees."""
from __future__ import annotations

import math

import numpy as np

from .values import pcc


def alignments(ref: np.ndarray, shape: tuple):
    """(label, ref's elements arranged as `shape`) for each layout the two stages may differ by."""
    if ref.shape == shape:
        yield "same", ref
        return
    if ref.size != math.prod(shape):
        return
    yield "reshaped", ref.reshape(shape)
    if ref.ndim == 4 and len(shape) == 4:
        n, c, h, w = ref.shape
        if shape == (1, 1, n * h * w, c):
            yield "NCHW -> flattened NHWC", ref.transpose(0, 2, 3, 1).reshape(shape)
        if shape == (n, h, w, c):
            yield "NCHW -> NHWC", ref.transpose(0, 2, 3, 1)
        if ref.shape[:2] == (1, 1) and len(shape) == 4:
            n2, c2, h2, w2 = shape
            if ref.shape == (1, 1, n2 * h2 * w2, c2):
                yield "flattened NHWC -> NCHW", ref.reshape(n2, h2, w2, c2).transpose(0, 3, 1, 2)


PERFECT = 1.0 - 1e-9  # a match no other candidate can beat: the search stops there


def best_alignment(v64: np.ndarray, ref: np.ndarray):
    """(pcc, max abs error, layout, allclose) of the best alignment of ref to the value `v64` (float64), or None
    when none fits."""
    best = None
    for label, aligned in alignments(np.asarray(ref), tuple(v64.shape)):
        a64 = np.asarray(aligned, dtype=np.float64)
        if np.array_equal(v64, a64):  # bit-equal (the common case between TTIR and TTNN): nothing to measure
            return 1.0, 0.0, label, True
        if np.isfinite(a64).all() and np.isfinite(v64).all():  # the common case, in few passes
            diff = np.abs(v64 - a64)
            max_abs = float(diff.max()) if diff.size else 0.0
            p = pcc(v64, a64)
            # PCC means nothing on a near-constant tensor (a mask, a variance of equal rows): values this close
            # are the same value whatever PCC says (numpy's allclose, rtol 1e-4, atol 1e-6).
            close = bool((diff <= 1e-6 + 1e-4 * np.abs(a64)).all())
        else:  # masks (-inf) and NaNs: the same non-finite values at the same places, then PCC of the rest
            finite = np.isfinite(v64) & np.isfinite(a64)
            same_rest = np.array_equal(np.nan_to_num(v64[~finite]), np.nan_to_num(a64[~finite])) and \
                np.array_equal(np.isnan(v64[~finite]), np.isnan(a64[~finite]))
            p = pcc(v64[finite], a64[finite]) if same_rest else 0.0
            with np.errstate(invalid="ignore"):
                diff = np.abs(v64 - a64)
            same = (v64 == a64) | (np.isnan(v64) & np.isnan(a64))
            max_abs = float(np.where(same, 0.0, diff).max()) if diff.size else 0.0
            close = bool(np.allclose(v64, a64, rtol=1e-4, atol=1e-6, equal_nan=True))
        if best is None or (close, p) > (best[3], best[0]):
            best = (p, max_abs, label, close)
    return best


def agrees(found, min_pcc: float) -> bool:
    """A best alignment agrees when its PCC reaches the threshold, or when its values are allclose (PCC means
    nothing on a near-constant tensor)."""
    return found[0] >= min_pcc or found[3]
