"""Issue 8: diffing two resnet50 export folders (target: <= 5 s here).

Two bringups of the same model (params=args, with the TT stages) are exported, then diffed 3 times; the median
is printed next to the time `diff -r` takes on the same folders (the raw text comparison users give up on).
"""
import statistics
import subprocess
import sys
import tempfile
import time

import ttbench as tb
from ttbench.diff import diff_folders

MODEL = sys.argv[1] if len(sys.argv) > 1 else "resnet50"


def main():
    with tempfile.TemporaryDirectory() as tmp:
        folders = []
        for side in ("a", "b"):
            m, x = tb.models.load(MODEL)
            folders.append(tb.bringup(m, x, name=MODEL).export(f"{tmp}/{side}"))
        times = []
        for _ in range(3):
            t = time.perf_counter()
            d = diff_folders(*folders)
            times.append(time.perf_counter() - t)
        t = time.perf_counter()
        raw = subprocess.run(["diff", "-r", *folders], capture_output=True, text=True)
        raw_s = time.perf_counter() - t
        changed_lines = sum(1 for l in raw.stdout.splitlines() if l[:1] in "<>")
        median = statistics.median(times)
        print(f"{MODEL}: ttbench diff median {median:.2f}s (target <= 5s: {'met' if median <= 5 else 'MISSED'}), "
              f"meaningful changes: {'yes' if d.changed else 'none'}; `diff -r` {raw_s:.2f}s with "
              f"{changed_lines} changed lines (ratio ttbench/diff -r time {median / max(raw_s, 1e-9):.1f})")


if __name__ == "__main__":
    main()
