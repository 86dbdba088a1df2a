"""The model zoo: `models/<name>/loader.py` at the repository root, each with `load() -> (nn.Module, inputs)`.

Weights are random from a fixed seed; nothing is downloaded.
"""
from __future__ import annotations

import importlib.util
import os

import torch

from .core import BadInput

ZOO_DIR = os.environ.get("TTBENCH_MODELS") or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                             "models")
SEED = 0


def names() -> list:
    if not os.path.isdir(ZOO_DIR):
        return []
    return sorted(d for d in os.listdir(ZOO_DIR) if os.path.isfile(os.path.join(ZOO_DIR, d, "loader.py")))


def describe(name: str) -> str:
    readme = os.path.join(ZOO_DIR, name, "README.md")
    if not os.path.isfile(readme):
        return ""
    with open(readme) as f:
        lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    return lines[0] if lines else ""


def _loader(name: str):
    if name not in names():
        raise BadInput(f"unknown model {name!r}: `ttbench models` lists the zoo ({', '.join(names())})")
    path = os.path.join(ZOO_DIR, name, "loader.py")
    spec = importlib.util.spec_from_file_location(f"ttbench_zoo_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load(name: str):
    """(model in eval mode with seeded random weights, tuple of example inputs)."""
    loader = _loader(name)
    with torch.random.fork_rng(devices=[]):  # seeded weights without touching the caller's random state
        torch.manual_seed(SEED)
        model, inputs = loader.load()
    return model.eval(), tuple(inputs)
