"""Tracker jobs, each a process of its own: forked from the run's zygote (what `ttbench track` and `ttbench sweep` do
with the local engine) vs started fresh with `python -m` (what they did before: every job imported torch,
transformers, timm, torchvision and torch-mlir again), side by side in one run.

    python benchmarks/bench_track_jobs.py [MODEL ...] [--rounds N] [--no-tt]
        (default: hf/bert hf/albert hf/gpt2 hf/vit timm/resnet; 2 rounds)

Like for like: the same jobs (model, export frontend, the TT stages unless --no-tt, the CPU run and the programs
in the interpreter: what a tracker job does), one at a time, the two modes interleaved per round so drift on a
shared machine hits both alike. Each job's wall time is from asking for it to having its row; the zygote's own
start (once per run) is printed apart and added to the zygote's total.
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ttbench.fleet import sweep  # noqa: E402
from ttbench.proc import zygote  # noqa: E402

ARGS = sys.argv[1:]
ROUNDS = int(ARGS[ARGS.index("--rounds") + 1]) if "--rounds" in ARGS else 2
TT = "--no-tt" not in ARGS
MODELS = [a for i, a in enumerate(ARGS) if not a.startswith("--") and (i == 0 or ARGS[i - 1] != "--rounds")] \
    or ["hf/bert", "hf/albert", "hf/gpt2", "hf/vit", "timm/resnet"]


def one(model: str) -> tuple:
    t0 = time.perf_counter()
    row = sweep._child(model, "export", TT, True, sweep.JOB_TIMEOUT_S, programs=True)
    return time.perf_counter() - t0, row


def main() -> None:
    fresh: dict = {m: [] for m in MODELS}
    forked: dict = {m: [] for m in MODELS}
    starts = []
    reached: dict = {}  # model -> the furthest stage, the same in both modes (the same work)
    for r in range(ROUNDS):
        for model in MODELS:
            seconds, row = one(model)
            fresh[model].append(seconds)
            reached[model] = row.get("furthest")
        t0 = time.perf_counter()
        with zygote.running([f"{sweep.JOB_MODULE}:preload"]) as z:
            starts.append(time.perf_counter() - t0)
            assert z is not None, "the zygote did not start"
            for model in MODELS:
                seconds, row = one(model)
                forked[model].append(seconds)
                assert row.get("furthest") == reached[model], (model, row.get("error"), reached[model])
        print(f"round {r + 1}/{ROUNDS} done", file=sys.stderr)
    print(f"tracker jobs ({'with' if TT else 'without'} the TT stages), median of {ROUNDS}, seconds per job")
    print(f"{'model':24} {'fresh python -m':>16} {'forked (zygote)':>16} {'ratio':>7}")
    for model in MODELS:
        a, b = statistics.median(fresh[model]), statistics.median(forked[model])
        print(f"{model:24} {a:16.1f} {b:16.1f} {b / a:7.2f}   (furthest: {reached[model]})")
    total_fresh = sum(statistics.median(v) for v in fresh.values())
    total_forked = sum(statistics.median(v) for v in forked.values()) + statistics.median(starts)
    print(f"zygote start (once per run): {statistics.median(starts):.1f} s")
    print(f"all {len(MODELS)} jobs, zygote start included: fresh {total_fresh:.1f} s, forked {total_forked:.1f} s, "
          f"ratio forked/fresh {total_forked / total_fresh:.2f} (over a whole run the start is paid once)")


if __name__ == "__main__":
    main()
