"""`ttbench doctor`: what is installed and usable here, with a hint for each missing piece."""
from __future__ import annotations

import os

from . import optional
from .fleet.ray_cluster import namespaces_refused
from .tt import plugin as tt_plugin
from .tt.sim.env import side_env, simulator


def report():
    rows, ok = [], True
    v = optional.versions()
    for dist in ("torch", "torch-mlir", "onnx", "jax", "jaxlib", "transformers"):
        rows.append((dist, v.get(dist) or "MISSING", "" if v.get(dist) else f"pip install {dist} (see requirements.lock)"))
        ok &= bool(v.get(dist))
    plugin = optional.tt_plugin()
    rows.append(("tt plugin", plugin.detail if plugin.available else "MISSING", plugin.hint))
    devices = optional.tt_device_count()
    rows.append(("tt device", f"{devices} chip(s)" if devices else "none: compile-only (Blackhole P150 descriptor)",
                 "" if devices else "numerics on Tenstorrent need a chip; TTIR/TTNN are still produced"))
    desc = os.path.join(tt_plugin.cache_dir(), tt_plugin.DESCRIPTOR_NAME)
    rows.append(("descriptor cache", desc if os.path.isfile(desc) else "not made yet",
                 "" if os.path.isfile(desc) else "made on the first TT compile (about 10 s)"))
    for piece in (side_env(), simulator()):  # b.run("ttnn", device="ttsim"): both, or neither is used
        rows.append((piece.name, piece.detail if piece.available else "MISSING", piece.hint))
    for piece in (optional.dot(), optional.netron(), optional.model_explorer(), optional.ray()):
        rows.append((piece.name, piece.detail if piece.available else "MISSING", "" if piece.available else piece.hint))
    if optional.ray().available:
        refused = namespaces_refused()
        rows.append(("private ray cluster", f"refused: {refused}" if refused else "yes, in its own namespaces",
                     "start a cluster yourself (`ray start --head`) and pass --address, or allow user namespaces"
                     if refused else ""))
    width = max(len(r[0]) for r in rows)
    lines = [f"{name.ljust(width)}  {state}" + (f"   -> {hint}" if hint else "") for name, state, hint in rows]
    return "\n".join(lines), ok
