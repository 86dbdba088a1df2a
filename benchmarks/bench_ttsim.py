"""The TTNN program on Tenstorrent's simulator beside ttbench's interpreter of the same program, in one run.

Per model: the simulator's cold run (a fresh kernel cache: tt-metal compiles every kernel with SFPI), its warm runs
(the cache from the cold one; medians of REPEATS), its median time per op (the replay's own per-op clock, warm),
and the interpreter's whole run of the same program on the same inputs (medians of REPEATS). Both compare against
the same golden; the golden's time is not counted in either (it is made once, before timing).

Needs the side environment (`make sim-env`) and TTBENCH_TTSIM (see docs/simulator.md); says so and exits 2 otherwise.

    python benchmarks/bench_ttsim.py [REPEATS] [MODEL ...]      (default: 3 mlp resnet18)
"""
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from _measure import median  # noqa: E402

import ttbench as tb  # noqa: E402
from ttbench.io.arrays import to_numpy  # noqa: E402
from ttbench.run.golden import golden_outputs  # noqa: E402
from ttbench.tt.program import parse_program  # noqa: E402
from ttbench.tt.sim.executor import available, simulate  # noqa: E402

ARGS = sys.argv[1:]
REPEATS = int(ARGS[0]) if ARGS and ARGS[0].isdigit() else 3
MODELS = [a for a in ARGS if not a.isdigit()] or ["mlp", "resnet18"]


def timed(fn):
    t0 = time.perf_counter()
    value = fn()
    return time.perf_counter() - t0, value


def main() -> int:
    missing = available()
    if missing:
        print(f"bench_ttsim: no simulator here: {missing}", file=sys.stderr)
        return 2
    print(f"{'model':<10} {'ops':>5} {'sim cold s':>11} {'sim warm s':>11} {'sim/op ms':>10} {'interp s':>9} "
          f"{'warm/interp':>12}  sim pcc / interp pcc")
    for name in MODELS:
        b = tb.bringup(*tb.models.load(name))
        golden_outputs(b)  # made once, outside every timing
        program = parse_program("ttnn", b.stages["ttnn"].full_text(), b.stages["ttnn"].ops)
        ops = sum(p.name != "ttnn.deallocate" for p in program.ops())
        arguments = [to_numpy(v) for v in b.argument_values]
        with tempfile.TemporaryDirectory(prefix="bench-ttsim-kernels-") as kernels:
            os.environ["TTBENCH_TTSIM_KERNEL_CACHE"] = kernels
            cold, _ = timed(lambda: simulate(program, arguments))
            warm, per_op, sim_pcc = [], [], None
            for _ in range(REPEATS):
                seconds, run = timed(lambda: simulate(program, arguments, record=False))
                warm.append(seconds)
                per_op.append(statistics.median(run.op_seconds.values()) if run.op_seconds else float("nan"))
            del os.environ["TTBENCH_TTSIM_KERNEL_CACHE"]
        sim = b.run("ttnn", device="ttsim")  # the shared kernel cache: for the PCC only, not timed
        interp = [timed(lambda: b.run("ttnn", device="cpu")) for _ in range(REPEATS)]
        interp_s = median([s for s, _ in interp])
        sim_pcc, interp_pcc = sim.pcc, interp[-1][1].pcc
        print(f"{name:<10} {ops:>5} {cold:>11.1f} {median(warm):>11.1f} {1000 * median(per_op):>10.1f} "
              f"{interp_s:>9.2f} {median(warm) / interp_s:>11.1f}x  "
              f"{'-' if sim_pcc is None else f'{sim_pcc:.6f}'} / {'-' if interp_pcc is None else f'{interp_pcc:.6f}'}"
              + ("" if sim.executed else f"  ({sim.message[:120]})"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
