"""A tracker job after a bump of the TT plugin alone: run whole (what it cost before, and what a bump of torch-mlir
still costs) vs resumed at the TT compile from its kept stages up to StableHLO (fleet/kept_stages.py), side by
side in one run.

    python benchmarks/bench_resume.py [MODEL ...] [--rounds N]
        (default: hf/bert hf/vit timm/resnet; 3 rounds)

Like for like: the same job (model, export frontend, TT stages, the CPU run and the programs in the interpreter:
what a tracker job does), each forked from one zygote as `ttbench track` runs them, one at a time, the two modes
interleaved per round so drift on a shared machine hits both alike; both rows must agree on every fact the TT
stages make. The kept folder is made once, by a first whole job, beforehand.
"""
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ttbench.fleet import kept_stages, sweep  # noqa: E402
from ttbench.proc import zygote  # noqa: E402

ARGS = sys.argv[1:]
ROUNDS = int(ARGS[ARGS.index("--rounds") + 1]) if "--rounds" in ARGS else 3
MODELS = [a for i, a in enumerate(ARGS) if not a.startswith("--") and (i == 0 or ARGS[i - 1] != "--rounds")] \
    or ["hf/bert", "hf/vit", "timm/resnet"]
SAME = ("furthest", "failed_stage", "ops", "stage_pcc", "pcc", "incorrect")


def one(model: str, kept=None) -> tuple:
    t0 = time.perf_counter()
    row = sweep._child(model, "export", True, True, sweep.JOB_TIMEOUT_S, programs=True, kept=kept)
    return time.perf_counter() - t0, row


def main() -> None:
    whole: dict = {m: [] for m in MODELS}
    resumed: dict = {m: [] for m in MODELS}
    with tempfile.TemporaryDirectory() as root, zygote.running([f"{sweep.JOB_MODULE}:preload"]) as z:
        assert z is not None, "the zygote did not start"
        kept = {m: os.path.join(root, m.replace("/", "_")) for m in MODELS}
        for model in MODELS:
            _, row = one(model, kept[model])
            assert kept_stages.complete(kept[model]), (model, row.get("error"), row.get("not_kept"))
        for r in range(ROUNDS):
            for model in MODELS:
                seconds, full = one(model)
                whole[model].append(seconds)
                seconds, again = one(model, kept[model])
                assert again.get("resumed"), (model, again.get("not_resumed"))
                assert {k: again.get(k) for k in SAME} == {k: full.get(k) for k in SAME}, model
                resumed[model].append(seconds)
            print(f"round {r + 1}/{ROUNDS} done", file=sys.stderr)
    print(f"a tracker job with the TT stages after a TT-plugin bump, median of {ROUNDS}, seconds per job")
    print(f"{'model':24} {'whole':>8} {'resumed':>8} {'ratio':>7}")
    for model in MODELS:
        a, b = statistics.median(whole[model]), statistics.median(resumed[model])
        print(f"{model:24} {a:8.1f} {b:8.1f} {b / a:7.2f}")
    total_whole = sum(statistics.median(v) for v in whole.values())
    total_resumed = sum(statistics.median(v) for v in resumed.values())
    print(f"all {len(MODELS)} jobs: whole {total_whole:.1f} s, resumed {total_resumed:.1f} s, "
          f"ratio resumed/whole {total_resumed / total_whole:.2f}")


if __name__ == "__main__":
    main()
