"""The sweep on the local engine (child processes) vs a local Ray cluster with the same CPUs, side by side, and
the projected wall time of a large sweep on N nodes from the measured per-job times.

Same work on both sides: the same models and frontends, the same flags, `--jobs` workers / CPUs each. The Ray
side is timed twice: with its cluster start (what one `ttbench sweep --engine ray` pays) and without (what a
long-lived cluster costs per sweep). Target: Ray/local <= 1.2x without the start.

    python benchmarks/bench_sweep.py [MODELS] [JOBS]     (default: mlp,bert_tiny,mobilenet_v2,resnet18 2)
"""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from _measure import median  # noqa: E402

from ttbench.fleet import executors  # noqa: E402
from ttbench.fleet import sweep  # noqa: E402

MODELS = (sys.argv[1] if len(sys.argv) > 1 else "mlp,bert_tiny,mobilenet_v2,resnet18").split(",")
JOBS = int(sys.argv[2]) if len(sys.argv) > 2 else 2
FRONTENDS = ("export", "dynamo", "onnx")
PROJECTED_MODELS, PROJECTED_CPUS_PER_NODE = 500, 16


def timed_sweep(engine):
    todo = [(m, f) for m in MODELS for f in FRONTENDS]
    jobs = [executors.Job(sweep._child, (m, f, False, True, sweep.JOB_TIMEOUT_S, False), sweep.JOB_TIMEOUT_S)
            for m, f in todo]
    t0 = time.perf_counter()
    rows = engine.run(jobs, lambda i, row: None)
    return time.perf_counter() - t0, rows


if __name__ == "__main__":
    with tempfile.TemporaryDirectory():
        local = executors.LocalEngine(jobs=JOBS)
        local_s, local_rows = timed_sweep(local)
        t0 = time.perf_counter()
        ray = executors.RayEngine(jobs=JOBS)  # a private cluster (its own namespaces) with JOBS CPUs
        start_s = time.perf_counter() - t0
        try:
            ray_s, ray_rows = timed_sweep(ray)
        finally:
            ray.close()
    n = len(local_rows)
    same = [(r["model"], r["frontend"], r.get("furthest")) for r in local_rows] == \
        [(r["model"], r["frontend"], r.get("furthest")) for r in ray_rows]
    print(f"{n} jobs ({len(MODELS)} models x {len(FRONTENDS)} frontends, --no-tt, CPU run), {JOBS} workers each; "
          f"same furthest stages: {same}")
    print(f"local engine {local_s:.1f} s; ray {ray_s:.1f} s + {start_s:.1f} s cluster start: "
          f"{ray_s / local_s:.2f}x without the start (target <= 1.2x), {(ray_s + start_s) / local_s:.2f}x with it")
    per_job = median([r["seconds"] for r in local_rows if isinstance(r.get("seconds"), (int, float))])
    jobs_total = PROJECTED_MODELS * len(FRONTENDS)
    for nodes in (1, 4, 16):
        hours = jobs_total * per_job / (nodes * PROJECTED_CPUS_PER_NODE) / 3600
        print(f"projected: {PROJECTED_MODELS} models x {len(FRONTENDS)} frontends at the median {per_job:.1f} s/job "
              f"on {nodes} node(s) x {PROJECTED_CPUS_PER_NODE} CPUs: {hours:.2f} h")
