"""StableHLO -> TTIR + TTNN through ttbench (child process, file collection) vs calling the plugin directly in one
process, side by side; and the share of TTIR ops that still carry a user source location.

Like for like: both sides compile the same StableHLO (the text ttbench hands over, role marks included) with the same
system descriptor and the same tt-metal cache folder.

    python benchmarks/bench_tt.py [MODEL] [REPEATS]      (default: mobilenet_v2 3)

Target: ratio <= 1.5x once the descriptor is cached.
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from _measure import in_child, median  # noqa: E402

import ttbench as tb  # noqa: E402
from ttbench.tt import plugin as tt_plugin  # noqa: E402
from ttbench.stages.tt import compile_tt, handed_over_text  # noqa: E402

MODEL = sys.argv[1] if len(sys.argv) > 1 else "mobilenet_v2"
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 3

DIRECT = """
import os
def setup():
    os.environ["TT_COMPILE_ONLY_SYSTEM_DESC"] = {desc!r}
    os.environ["TT_METAL_CACHE"] = {metal_cache!r}
    return open({src!r}, "rb").read()
def work(payload):
    from jax._src import xla_bridge
    from jax._src.lib import xla_client
    client = xla_bridge.get_backend("tt")
    options = xla_client.CompileOptions()
    options.env_option_overrides = [("export_path", {out!r})]
    client.compile_and_load(payload, xla_client.DeviceList(tuple(client.devices()[:1])), options)
"""

if __name__ == "__main__":
    model, inputs = tb.models.load(MODEL)
    b = tb.bringup(model, inputs, tt=False)
    shlo = b.stages["stablehlo"]
    descriptor = tt_plugin.system_descriptor()  # cached before timing, as the target says
    work = tempfile.mkdtemp()
    src = os.path.join(work, "in.mlir")
    with open(src, "w") as f:
        f.write(handed_over_text(shlo, b.arguments, "args"))
    metal_cache = os.environ.get("TT_METAL_CACHE") or os.path.join(tt_plugin.cache_dir(), "tt-metal")
    import time

    ours, direct, coverage = [], [], None
    for i in range(REPEATS):
        t0 = time.perf_counter()
        ttir, ttnn = compile_tt(shlo, b.arguments, "args", tt_plugin.DEFAULT_TIMEOUT_S)
        ours.append(time.perf_counter() - t0)
        assert ttir.ok and ttnn.ok, ttir.error or ttnn.error
        counted = [op for op in ttir.ops if op.name != "ttir.constant"]
        coverage = sum(op.location is not None for op in counted) / len(counted)
        # the direct call: start a Python, start the client, compile, as a user's script would
        t0 = time.perf_counter()
        in_child(DIRECT.format(desc=descriptor or "", src=src, out=os.path.join(work, f"direct{i}"),
                               metal_cache=metal_cache))
        direct.append(time.perf_counter() - t0)
    print(f"{MODEL}: StableHLO -> TTIR + TTNN, median of {REPEATS}, wall seconds including process start")
    print(f"ttbench compile_tt (child process)   {median(ours):7.2f}")
    print(f"plugin called directly (one process) {median(direct):7.2f}")
    print(f"ratio ttbench/direct: {median(ours) / median(direct):.2f}  (target <= 1.5)")
    print(f"TTIR ops (excluding ttir.constant) with a user source location: {coverage:.1%}")
