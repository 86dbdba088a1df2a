"""The model zoo: `models/<name>/loader.py` at the repository root, each with `load() -> (nn.Module, inputs)`.

Weights are random from a fixed seed; nothing is downloaded.
"""
from __future__ import annotations

import importlib.util
import inspect
import os
from typing import Optional

from . import hf_zoo, vision_zoo
from .core import BadInput

ZOO_DIR = os.environ.get("TTBENCH_MODELS") or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                             "models")
SEED = 0


def names() -> list:
    if not os.path.isdir(ZOO_DIR):
        return []
    return sorted(d for d in os.listdir(ZOO_DIR) if os.path.isfile(os.path.join(ZOO_DIR, d, "loader.py")))


HF_PREFIX = hf_zoo.PREFIX
PREFIXES = (HF_PREFIX, *vision_zoo.PREFIXES)  # names of the package-built zoos (PREFIX/NAME), never a path


def known(name: str) -> bool:
    """A zoo name (NAME or NAME:VARIANT), hf/ARCH of the transformers zoo, timm/FAMILY or torchvision/NAME."""
    if name.startswith(HF_PREFIX):
        return name[len(HF_PREFIX):] in hf_zoo.architectures()
    if name.startswith(vision_zoo.PREFIXES):
        return vision_zoo.known(name)
    return name.partition(":")[0] in names()


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
    if spec is None or spec.loader is None:
        raise BadInput(f"cannot load {path} as Python code")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


WEIGHT_MODES = ("random", "meta")


def load(name: str, weights: Optional[str] = None):
    """(model in eval mode, tuple of example inputs). NAME:VARIANT picks one of a loader's VARIANTS
    (llama_8b:decode: one decode step with a static KV cache).

    weights="random": seeded random weights. weights="meta": the model is built on the meta device (shapes and
    dtypes, no storage: what an 8B-parameter LLM needs on a small machine); it compiles but runs only once given
    weights (Bringup.load_weights). A loader whose load() takes `weights` builds its own meta model with real example
    inputs; any other is built under torch.device("meta"), inputs included (compile only). None: the loader's
    default (`DEFAULT_WEIGHTS`, else random)."""
    if weights is not None and weights not in WEIGHT_MODES:
        raise BadInput(f"unknown weights mode {weights!r}: choose one of {', '.join(WEIGHT_MODES)}")
    if name.startswith(HF_PREFIX):  # hf/ARCH: an architecture of the transformers zoo (hf_zoo.py)
        return hf_zoo.load(name[len(HF_PREFIX):], weights)
    if name.startswith(vision_zoo.PREFIXES):  # timm/FAMILY, torchvision/NAME (vision_zoo.py)
        return vision_zoo.load(name, weights)
    name, _, variant = name.partition(":")
    import torch  # lazy: `ttbench models` lists the zoo without torch (~2.5 s to import)

    loader = _loader(name)
    variants = getattr(loader, "VARIANTS", ())
    if variant and variant not in variants:
        raise BadInput(f"{name} has no variant {variant!r}" + (f": choose one of {', '.join(variants)}" if variants
                                                               else " (it is one graph)"))
    takes_weights = "weights" in inspect.signature(loader.load).parameters
    weights = weights or getattr(loader, "DEFAULT_WEIGHTS", "random")
    with torch.random.fork_rng(devices=[]):  # seeded weights without touching the caller's random state
        torch.manual_seed(SEED)
        if takes_weights:
            model, inputs = loader.load(weights=weights, **({"variant": variant} if variant else {}))
        elif weights == "meta":
            with torch.device("meta"):
                model, inputs = loader.load()
        else:
            model, inputs = loader.load()
    return model.eval(), tuple(inputs)
