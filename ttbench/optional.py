"""Optional pieces, each detected once, with what to do when it is missing."""
from __future__ import annotations

import functools
import importlib.metadata as md
import importlib.util
import os
import pathlib
import shutil
import sys
from dataclasses import dataclass
from typing import Optional

from .core import VERSION


@dataclass(frozen=True)
class Piece:
    name: str
    available: bool
    detail: str  # version or path when available; empty otherwise
    hint: str  # how to get it


# Tenstorrent PJRT plugins ttbench accepts: (distribution, jax_plugins module). Both expose the same PJRT
# interface and compile options; PyPI's jax-tt-plugin is the one pinned here, pjrt-plugin-tt is Tenstorrent's.
TT_PLUGINS = (("jax-tt-plugin", "jax_plugins.libtt"), ("pjrt-plugin-tt", "jax_plugins.pjrt_plugin_tt"))
TT_HINT = "pip install jax-tt-plugin==0.1.3 (or Tenstorrent's tt-xla wheel, pjrt-plugin-tt)"


# timm and torchvision (the timm/ and torchvision/ zoo entries): outside site-packages, on the path only once
# vision_zoo.py has made torchvision's import sound (see there).
VISION_PACKAGES = os.environ.get("TTBENCH_VISION_PACKAGES") or os.path.join(sys.prefix, "vision-packages")


def _version(dist: str) -> Optional[str]:
    try:
        return md.version(dist)
    except md.PackageNotFoundError:
        return None


@functools.lru_cache(maxsize=None)
def tt_plugin() -> Piece:
    if os.environ.get("TTBENCH_DISABLE_TT"):
        return Piece("tt-plugin", False, "", f"disabled by TTBENCH_DISABLE_TT; unset it, or {TT_HINT}")
    for dist, module in TT_PLUGINS:
        version = _version(dist)
        if version and importlib.util.find_spec(module) is not None:
            return Piece("tt-plugin", True, f"{dist} {version}", "")
    return Piece("tt-plugin", False, "", TT_HINT)


def tt_device_count() -> int:
    try:
        return sum(p.name.isdigit() for p in pathlib.Path("/dev/tenstorrent").iterdir())
    except OSError:
        return 0


@functools.lru_cache(maxsize=None)
def dot() -> Piece:
    path = shutil.which("dot")
    return Piece("dot", bool(path), path or "", "apt-get install graphviz (or conda install graphviz)")


@functools.lru_cache(maxsize=None)
def netron() -> Piece:
    version = _version("netron")
    return Piece("netron", bool(version), version or "", "pip install netron")


@functools.lru_cache(maxsize=None)
def model_explorer() -> Piece:
    version = _version("ai-edge-model-explorer")
    return Piece("model-explorer", bool(version), version or "",
                 "pip install 'ttbench[explorer]' (ai-edge-model-explorer==0.1.34; `make setup` installs it without "
                 "its 481 MB TFLite converter, which ttbench's JSON graphs do not need)")


@functools.lru_cache(maxsize=None)
def ray() -> Piece:
    version = _version("ray")
    return Piece("ray", bool(version), version or "", "pip install 'ttbench[ray]' (ray==2.60.0), for sweep --engine ray")


def versions() -> dict:
    """Versions of everything that shapes the IR, for manifests and diffs."""
    out = {"ttbench": VERSION}
    for dist in ("torch", "torch-mlir", "onnx", "onnxscript", "jax", "jaxlib", "transformers"):
        out[dist] = _version(dist)
    for dist in ("timm", "torchvision"):  # in a folder of their own (VISION_PACKAGES)
        found = next(iter(md.distributions(name=dist, path=[VISION_PACKAGES])), None)
        out[dist] = found.version if found is not None else _version(dist)
    plugin = tt_plugin()
    out["tt-plugin"] = plugin.detail or None
    return out
