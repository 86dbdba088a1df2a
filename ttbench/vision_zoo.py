"""The vision zoos beside transformers: timm (one entry per architecture family) and torchvision (classification,
detection backbones, segmentation, video, optical flow), random weights (`pretrained=False`, `weights=None`),
nothing downloaded. `tb.models.load("timm/resnet")` or `tb.models.load("torchvision/resnet18")` builds one.

torchvision's wheel for torch 2.13 is built against the CUDA torch: under the CPU torch its native library does not
load, and its import then fails on the two ops (`nms`, `qnms`) whose fake kernels it registers unconditionally.
Their schemas (no kernels) are defined before the import, and only then: no model built here calls them (a whole
detection model does, in its post-processing, so detection entries are the model's backbone with its FPN, which is
what a Tenstorrent bringup of a detector starts from).

Because transformers imports torchvision whenever it can find it, a torchvision in site-packages would break every
`import transformers` that ran before this module's fix (the user's own, the tracker's bare-route scripts). So
`make setup` installs timm and torchvision into a folder of their own (VISION_PACKAGES), which goes on sys.path
only here, after the fix, when a timm/ or torchvision/ entry is asked for.
"""
from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import re
import sys
from functools import lru_cache
from typing import Optional

from .core import BadInput
from .optional import VISION_PACKAGES

TIMM, TORCHVISION = "timm/", "torchvision/"
PREFIXES = (TIMM, TORCHVISION)
TORCHVISION_KINDS = ("classification", "detection", "segmentation", "video", "optical_flow")
# A family's entry is its smallest-sounding model: the first of these size words in its name, else the shortest name.
SIZE_WORDS = ("atto", "femto", "pico", "nano", "xxxs", "xxs", "tiny", "xs", "mini", "small", "lite", "s0", "s", "t0",
              "t8", "m0", "b0", "t", "18", "base", "b", "m", "medium")
VIDEO_INPUT = {"mvit": (16, 224, 224), "s3d": (16, 224, 224), "swin3d": (8, 224, 224)}  # else (8, 112, 112)
FLOW_SIZE = 128  # RAFT: two 128x128 frames (a multiple of 8)
_SCHEMAS = None  # the torchvision library fragment defining nms/qnms, alive while this process is
MISSING = ("timm/ and torchvision/ entries need timm and torchvision in " + VISION_PACKAGES + ": `make setup` "
           "installs them (pip install --no-deps --target " + VISION_PACKAGES + " -r requirements-vision.lock)")


def _findable(name: str) -> bool:
    """`name` importable once VISION_PACKAGES is on the path (without importing it or putting it there)."""
    return importlib.util.find_spec(name) is not None or os.path.isdir(os.path.join(VISION_PACKAGES, name))


def import_torchvision():
    """torchvision, imported soundly under the CPU torch (see the module doc)."""
    global _SCHEMAS
    if "torchvision" in sys.modules and hasattr(sys.modules["torchvision"], "models"):
        return sys.modules["torchvision"]
    if not _findable("torchvision") or not _findable("timm"):
        raise BadInput(MISSING)
    import torch

    spec = importlib.util.find_spec("torchvision")
    if spec is None and os.path.isdir(VISION_PACKAGES):
        spec = importlib.machinery.PathFinder.find_spec("torchvision", [VISION_PACKAGES])
    if spec is None or spec.origin is None:
        raise BadInput(MISSING)
    if _SCHEMAS is None and not hasattr(torch.ops.torchvision, "nms"):
        native = os.path.join(os.path.dirname(spec.origin), "_C.so")
        try:
            torch.ops.load_library(native)  # what torchvision's own import does: works beside its own torch build
        except (OSError, RuntimeError):
            _SCHEMAS = torch.library.Library("torchvision", "FRAGMENT")
            for op in ("nms", "qnms"):
                _SCHEMAS.define(f"{op}(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
    if os.path.isdir(VISION_PACKAGES) and VISION_PACKAGES not in sys.path:
        sys.path.append(VISION_PACKAGES)  # after the fix above, never before (see the module doc)
    import torchvision

    return torchvision


def import_timm():
    """timm, once torchvision (which it imports) is."""
    import_torchvision()
    import timm

    return timm


def _size_rank(name: str) -> tuple:
    words = re.split(r"[_.\-]", name)
    for i, size in enumerate(SIZE_WORDS):
        if size in words:
            return (i, len(name), name)
    return (len(SIZE_WORDS), len(name), name)


@lru_cache(maxsize=1)
def timm_families() -> dict:
    """{family (timm's module name): the model that stands for it}."""
    timm = import_timm()
    out = {}
    for family in timm.list_modules():
        names = timm.list_models(module=family, exclude_filters=["*_in22k*"])
        if names:
            out[family] = min(names, key=_size_rank)
    return dict(sorted(out.items()))


@lru_cache(maxsize=1)
def torchvision_models() -> dict:
    """{name: kind} of every torchvision model of TORCHVISION_KINDS (quantized ones left out)."""
    models = import_torchvision().models
    modules = {"classification": models, "detection": models.detection, "segmentation": models.segmentation,
               "video": models.video, "optical_flow": models.optical_flow}
    return {name: kind for kind in TORCHVISION_KINDS for name in sorted(models.list_models(module=modules[kind]))}


def entries() -> list:
    """Every entry of both zoos, as zoo names (timm/FAMILY, torchvision/NAME); [] without torchvision."""
    if not _findable("torchvision") or not _findable("timm"):
        return []
    return [TIMM + f for f in timm_families()] + [TORCHVISION + n for n in torchvision_models()]


def known(name: str) -> bool:
    if name.startswith(TIMM):
        return name[len(TIMM):] in timm_families()
    if name.startswith(TORCHVISION):
        return name[len(TORCHVISION):] in torchvision_models()
    return False


def _wrapper_class():
    import torch

    class TensorsOut(torch.nn.Module):
        """A vision model whose output (a dict of feature maps, a list of flow estimates) is given back as a
        tuple of tensors, in order (ttbench compares tensors)."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, *inputs):
            return tuple(_tensors_in(self.model(*inputs)))

    def _tensors_in(value):
        if isinstance(value, torch.Tensor):
            yield value
        elif isinstance(value, dict):
            for v in value.values():
                yield from _tensors_in(v)
        elif isinstance(value, (tuple, list)):
            for v in value:
                yield from _tensors_in(v)
    return TensorsOut


def load(name: str, weights: Optional[str] = None):
    """(model in eval mode, inputs) of one entry, seeded random weights; weights="meta": built on meta."""
    if not known(name):
        zoo = "timm" if name.startswith(TIMM) else "torchvision"
        raise BadInput(f"unknown {zoo} entry {name!r}: `ttbench models --vision` lists them")
    import torch

    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        if weights == "meta":
            with torch.device("meta"):
                model, inputs = _build(name)
        else:
            model, inputs = _build(name)
    return _wrapper_class()(model.eval()).eval(), inputs


def _build(name: str):
    import torch

    if name.startswith(TIMM):
        timm = import_timm()
        model = timm.create_model(timm_families()[name[len(TIMM):]], pretrained=False)
        size = timm.data.resolve_model_data_config(model)["input_size"]
        return model, (torch.randn(1, *size),)
    models = import_torchvision().models
    arch = name[len(TORCHVISION):]
    kind = torchvision_models()[arch]
    if kind == "optical_flow":
        frame = (1, 3, FLOW_SIZE, FLOW_SIZE)
        return models.get_model(arch, weights=None), (torch.randn(*frame), torch.randn(*frame))
    if kind == "video":
        frames, height, width = next((v for k, v in VIDEO_INPUT.items() if arch.startswith(k)), (8, 112, 112))
        return models.get_model(arch, weights=None), (torch.randn(1, 3, frames, height, width),)
    if kind == "detection":  # the backbone with its FPN: the whole model's post-processing calls nms
        detector = models.get_model(arch, weights=None, weights_backbone=None)
        height, width = getattr(detector.transform, "fixed_size", None) or (224, 224)  # SSD's are fixed
        return detector.backbone, (torch.randn(1, 3, height, width),)
    if kind == "segmentation":
        return models.get_model(arch, weights=None, weights_backbone=None), (torch.randn(1, 3, 224, 224),)
    return models.get_model(arch, weights=None), (torch.randn(1, 3, 224, 224),)
