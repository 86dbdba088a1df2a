"""Weight values for a bringup whose model was built on the meta device: from a dict or a .safetensors file.

Only the arguments still on meta are filled, and a .safetensors file is opened lazily (safe_open): a tensor the
graph does not take is never read. Everything is checked before anything is replaced, so a bad file leaves the
bringup as it was.
"""
from __future__ import annotations

import os

import numpy as np
import torch

from ..core import BringupRecord, BadInput


def load_argument_values(b: BringupRecord, weights) -> None:
    wanted = [(i, a) for i, (a, v) in enumerate(zip(b.arguments, b.argument_values))
              if v.is_meta and a.role != "input"]
    if not wanted:  # using them would be a guess (replace the model's own?): refuse rather than ignore them
        raise BadInput("this bringup already has every weight's values (its model is not on the meta device): "
                       "weights= is for a model built on meta; bring the model up with the weights you want")
    get, source = _reader(weights)
    missing = [a.name for _, a in wanted if not get.has(a.name)]
    if missing:
        raise BadInput(f"{source} lacks {len(missing)} of the {len(wanted)} weights the graph takes (e.g. "
                       f"{', '.join(missing[:3])}): names are b.arguments' names, the model's state_dict keys")
    loaded = {}
    for i, arg in wanted:
        tensor = get(arg.name)
        want = b.argument_values[i]
        if tuple(tensor.shape) != tuple(want.shape) or tensor.dtype != want.dtype:
            raise BadInput(f"weight {arg.name} in {source} is {_desc(tensor)}, the graph was compiled for "
                           f"{_desc(want)}")
        loaded[i] = tensor
    for i, tensor in loaded.items():
        b.argument_values[i] = tensor


class _Dict:
    def __init__(self, weights: dict):
        self.weights = weights

    def has(self, name: str) -> bool:
        return name in self.weights

    def __call__(self, name: str) -> torch.Tensor:
        value = self.weights[name]
        if isinstance(value, np.ndarray):
            value = torch.from_numpy(value)
        if not isinstance(value, torch.Tensor):
            raise BadInput(f"weight {name} must be a torch.Tensor or numpy array, got {type(value).__name__}")
        if value.is_meta:
            raise BadInput(f"weight {name} is itself on the meta device: it has no values to load")
        return value.detach()


class _SafeTensors:
    def __init__(self, path: str):
        from safetensors import safe_open

        try:
            self.file = safe_open(path, framework="pt")
            self.names = set(self.file.keys())
        except Exception as exc:  # noqa: BLE001 - any unreadable file is the user's to fix, said in one line
            raise BadInput(f"cannot read {path} as a .safetensors file ({type(exc).__name__}: "
                           f"{str(exc).splitlines()[0][:200] if str(exc) else ''})") from None

    def has(self, name: str) -> bool:
        return name in self.names

    def __call__(self, name: str) -> torch.Tensor:
        return self.file.get_tensor(name)


def _reader(weights):
    if isinstance(weights, dict):
        return _Dict(weights), "the weights given"
    if isinstance(weights, (str, os.PathLike)):
        path = os.fspath(weights)
        if not os.path.isfile(path):
            raise BadInput(f"weights file {path} does not exist: pass a .safetensors file or a dict of tensors")
        return _SafeTensors(path), path
    raise BadInput(f"weights must be a dict {{name: tensor}} or the path of a .safetensors file, "
                   f"got {type(weights).__name__}")


def _desc(t) -> str:
    return f"{'x'.join(map(str, t.shape)) or 'scalar'} {str(t.dtype).replace('torch.', '')}"
