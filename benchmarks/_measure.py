"""Run one measurement in a fresh child process: wall seconds and peak RSS of the work alone."""
import json
import os
import resource
import subprocess
import sys
import time


def in_child(code: str) -> dict:
    """Execute `code` (which defines `setup()` returning state and `work(state)`) in a new interpreter."""
    runner = (
        "import json, resource, time\n" + code +
        "\nstate = setup()\nrss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "t0 = time.perf_counter()\nextra = work(state) or {}\nsec = time.perf_counter() - t0\n"
        "rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print('RESULT' + json.dumps({'seconds': sec, 'peak_rss_mb': rss / 1024, 'rss_before_mb': rss0 / 1024, **extra}))\n"
    )
    out = subprocess.run([sys.executable, "-c", runner], capture_output=True, text=True,
                         env={**os.environ, "PYTHONWARNINGS": "ignore"})
    for line in out.stdout.splitlines():
        if line.startswith("RESULT"):
            return json.loads(line[6:])
    raise RuntimeError(out.stderr[-2000:])


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2


def median_seconds(fn, n=3):
    """Median wall time of n calls of fn()."""
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return median(times)
