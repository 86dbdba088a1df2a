"""Tracker jobs compiling through the run's compile service (one Tenstorrent plugin process for every job:
tt/compile_service.py) vs each job starting the plugin for its own compile (one-shot), side by side in one run.

    python benchmarks/bench_compile_service.py [MODEL ...] [--rounds N]
        (default: hf/bert hf/albert hf/vit timm/resnet torchvision/mobilenet_v3_small; 2 rounds)

Like for like: the same jobs (export frontend, the TT stages, the CPU run and both programs in the interpreter:
what a tracker job does), forked from one zygote, one at a time, the two modes interleaved per model and round so
drift on a shared machine hits both alike. Printed per model: the job's wall time and its TT compile time (the
ttir stage's seconds) in each mode, medians. The service's own start (its plugin loads on the first compile) is
inside the first served job's time.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import time  # noqa: E402

from ttbench.fleet import sweep  # noqa: E402
from ttbench.proc import zygote  # noqa: E402
from ttbench.tt import plugin as tt_plugin  # noqa: E402

ARGS = sys.argv[1:]
ROUNDS = int(ARGS[ARGS.index("--rounds") + 1]) if "--rounds" in ARGS else 2
MODELS = [a for i, a in enumerate(ARGS) if not a.startswith("--") and (i == 0 or ARGS[i - 1] != "--rounds")] \
    or ["hf/bert", "hf/albert", "hf/vit", "timm/resnet", "torchvision/mobilenet_v3_small"]


def one(model: str) -> tuple:
    t0 = time.perf_counter()
    row = sweep._child(model, "export", True, True, sweep.JOB_TIMEOUT_S, programs=True)
    compile_s = ((row.get("stages") or {}).get("ttir") or {}).get("seconds")
    return time.perf_counter() - t0, compile_s, row


def main() -> None:
    service = tt_plugin.compile_service()
    if service is None:
        sys.exit("the Tenstorrent plugin cannot compile here: nothing to compare")
    times: dict = {mode: {m: ([], []) for m in MODELS} for mode in ("one-shot", "served")}
    with zygote.running([f"{sweep.JOB_MODULE}:preload"]) as z, service:
        assert z is not None, "the zygote did not start"
        from ttbench.tt import compile_service

        for r in range(ROUNDS):
            for model in MODELS:
                for mode in ("one-shot", "served"):
                    saved, compile_service._current = compile_service._current, None
                    if mode == "served":
                        compile_service._current = saved
                    try:
                        wall, compile_s, row = one(model)
                    finally:
                        compile_service._current = saved
                    assert row.get("furthest") == "ttnn", (model, mode, row.get("error"))
                    times[mode][model][0].append(wall)
                    times[mode][model][1].append(compile_s)
            print(f"round {r + 1}/{ROUNDS} done", file=sys.stderr)
    print(f"tracker jobs with the TT stages, median of {ROUNDS}: job wall time and TT compile time, seconds")
    print(f"{'model':32} {'one-shot job':>12} {'served job':>11} {'ratio':>6} {'one-shot TT':>12} {'served TT':>10}")
    totals = {"one-shot": 0.0, "served": 0.0}
    for model in MODELS:
        (a, ac), (b, bc) = times["one-shot"][model], times["served"][model]
        totals["one-shot"] += statistics.median(a)
        totals["served"] += statistics.median(b)
        print(f"{model:32} {statistics.median(a):12.1f} {statistics.median(b):11.1f} "
              f"{statistics.median(b) / statistics.median(a):6.2f} {statistics.median(ac):12.2f} "
              f"{statistics.median(bc):10.2f}")
    print(f"all {len(MODELS)} jobs: one-shot {totals['one-shot']:.1f} s, served {totals['served']:.1f} s, ratio "
          f"{totals['served'] / totals['one-shot']:.2f}")


if __name__ == "__main__":
    main()
