"""PJRT devices ttbench can run on, detected once: the CPU (jaxlib), NVIDIA GPUs (jax CUDA plugin) and
Tenstorrent chips (the Tenstorrent PJRT plugin)."""
from __future__ import annotations

import functools
import importlib.util
from dataclasses import dataclass

from .. import optional
from ..core import BadInput, DeviceName
from ..tt.sim.env import replay_missing


@dataclass(frozen=True)
class Device:
    name: DeviceName  # what b.run(device=...) takes
    usable: bool  # can execute here
    reason: str  # why not (or what it is)
    compiles: bool = False  # can still compile without executing (Tenstorrent compile-only mode)

    def __post_init__(self):
        object.__setattr__(self, "name", DeviceName(self.name))

    def __str__(self) -> str:
        state = "usable" if self.usable else ("compile-only" if self.compiles else "not usable")
        return f"{self.name:<5} {state:<13} {self.reason}"


@functools.lru_cache(maxsize=None)
def devices() -> tuple:
    found = []
    has_jaxlib = importlib.util.find_spec("jaxlib") is not None
    found.append(Device(DeviceName.CPU, has_jaxlib, "jaxlib's PJRT CPU client" if has_jaxlib else "pip install jaxlib"))
    cuda = any(importlib.util.find_spec(m) is not None for m in ("jax_cuda12_plugin", "jax_cuda13_plugin"))
    found.append(Device(DeviceName.CUDA, cuda,
                        "jax CUDA plugin" if cuda else "no jax CUDA plugin: pip install 'jax[cuda12]'"))
    plugin = optional.tt_plugin()
    chips = optional.tt_device_count()
    if not plugin.available:
        found.append(Device(DeviceName.TT, False, f"no Tenstorrent PJRT plugin: {plugin.hint}"))
    elif chips == 0:
        found.append(Device(DeviceName.TT, False, "compile-only: no Tenstorrent device to run on (/dev/tenstorrent "
                                                  "has no chips); stages compile to TTNN but nothing executes",
                            compiles=True))
    else:
        found.append(Device(DeviceName.TT, True, f"{chips} Tenstorrent chip(s), {plugin.detail}"))
    missing = replay_missing()
    found.append(Device(DeviceName.TTSIM, missing is None,
                        missing or "ttnn on a simulated Blackhole (ttsim): the TTNN stage only"))
    return tuple(found)


def device(name: str) -> Device:
    for d in devices():
        if d.name == name:
            return d
    raise BadInput(f"unknown device {name!r}: choose one of {', '.join(d.name for d in devices())}")
