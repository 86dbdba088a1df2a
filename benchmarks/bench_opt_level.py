"""The Tenstorrent compile at optimization level 2 against level 0, for the same StableHLO, cold (an empty tt-metal
kernel cache) and warm (the cache ttbench keeps), side by side; medians of REPEATS.

    python benchmarks/bench_opt_level.py [MODEL ...] [--repeats N]      (default: mlp, 3 repeats)

The optimizer's op-model queries JIT-compile kernels: that is the cold cost, paid once per machine and plugin
version; ttbench keeps the kernels in its cache's tt-metal/ folder (TT_METAL_CACHE), so later compiles are warm.
Like for like: both levels compile the same handed-over text with the same descriptor, through ttbench's one path.
"""
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from _measure import median  # noqa: E402

import ttbench as tb  # noqa: E402
from ttbench.stages.tt import compile_tt  # noqa: E402
from ttbench.tt import plugin as tt_plugin  # noqa: E402


CACHES: list = []


def fresh_cache() -> str:
    CACHES.append(tempfile.mkdtemp(prefix="ttbench-bench-metal-"))
    return CACHES[-1]


def timed(b, level: int, cache: str) -> float:
    os.environ["TT_METAL_CACHE"] = cache  # the compile's child takes it (tt/plugin.py sets it only when unset)
    t0 = time.perf_counter()
    ttir, ttnn = compile_tt(b.stages["stablehlo"], b.arguments, "args", tt_plugin.DEFAULT_TIMEOUT_S, level)
    assert ttir.ok and ttnn.ok, ttir.error or ttnn.error
    return time.perf_counter() - t0


if __name__ == "__main__":
    args = sys.argv[1:]
    repeats = 3
    if "--repeats" in args:
        at = args.index("--repeats")
        repeats = int(args[at + 1])
        del args[at:at + 2]
    tt_plugin.system_descriptor()  # made once, before any timing
    print(f"{'model':<14}{'level':>6}{'cold s':>10}{'warm s':>10}   (medians of {repeats})")
    for name in args or ["mlp"]:
        model, inputs = tb.models.load(name)
        b = tb.bringup(model, inputs, tt=False, name=name, progress=False)
        medians = {}
        for level in (0, 2):
            cold = [timed(b, level, fresh_cache()) for _ in range(repeats)]
            warm_cache = fresh_cache()
            timed(b, level, warm_cache)  # fills the cache
            warm = [timed(b, level, warm_cache) for _ in range(repeats)]
            medians[level] = (median(cold), median(warm))
            print(f"{name:<14}{level:>6}{medians[level][0]:>10.1f}{medians[level][1]:>10.1f}", flush=True)
        print(f"{name:<14}{'2 / 0':>6}{medians[2][0] / medians[0][0]:>9.1f}x{medians[2][1] / medians[0][1]:>9.1f}x")
    for cache in CACHES:
        shutil.rmtree(cache, ignore_errors=True)
