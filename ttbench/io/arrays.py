"""Torch tensors as numpy arrays and back, bit for bit: bfloat16 and the float8 types through ml_dtypes' types."""
from __future__ import annotations

import numpy as np
import torch

from ..proc.array_files import ML_TYPES

# torch dtypes numpy has no type of its own for: the same bits, viewed through ml_dtypes' types (one table of
# names, shared with the files that hand arrays between processes).
ML_DTYPES = {getattr(torch, name): name for name in ML_TYPES}


def to_numpy(t: torch.Tensor) -> np.ndarray:
    t = t.detach().cpu().contiguous()
    if t.dtype in ML_DTYPES:
        import ml_dtypes

        bits = torch.int16 if t.element_size() == 2 else torch.uint8
        return t.view(bits).numpy().view(getattr(ml_dtypes, ML_DTYPES[t.dtype]))
    return t.numpy()


def from_numpy(a: np.ndarray) -> torch.Tensor:
    """A torch tensor of the same bits and element type (a copy), ml_dtypes' types included."""
    a = np.array(a, order="C", copy=True)
    by_name = {name: dtype for dtype, name in ML_DTYPES.items()}
    if a.dtype.name in by_name:
        bits = np.int16 if a.dtype.itemsize == 2 else np.uint8
        return torch.from_numpy(a.view(bits)).view(by_name[a.dtype.name])
    return torch.from_numpy(a)
