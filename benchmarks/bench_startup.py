"""Issues 27 and 46: how long commands that need no torch take to start (targets: < 0.5 s each, and at most 0.25x
`import torch`; tests/house/test_layering.py guards that none of them imports torch at all).

`ttbench --help`, `ttbench models`, `ttbench doctor` and `ttbench diff A B` on two small export folders (mlp,
params=args vs inline, compile-only TT stages included), each run 5 times as a fresh process, printed as medians
next to the two baselines measured in the same run: `python -c pass` (the interpreter alone) and
`python -c "import torch"` (what every command paid before imports were deferred).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

REPEATS = 5
TTBENCH = os.path.join(os.path.dirname(sys.executable), "ttbench")


def median_seconds(cmd: list) -> float:
    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        folders = [os.path.join(tmp, p) for p in ("args", "inline")]
        for folder, params in zip(folders, ("args", "inline")):
            subprocess.run([TTBENCH, "bringup", "mlp", "--params", params, "--out", folder], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        baseline = median_seconds([sys.executable, "-c", "pass"])
        torch_import = median_seconds([sys.executable, "-c", "import torch"])
        print(f"python -c pass          {baseline:6.3f} s")
        print(f"python -c 'import torch' {torch_import:6.3f} s")
        for label, args in (("ttbench --help", ["--help"]), ("ttbench models", ["models"]),
                            ("ttbench doctor", ["doctor"]), ("ttbench diff A B", ["diff", *folders])):
            seconds = median_seconds([TTBENCH, *args])
            verdict = "ok" if seconds < 0.5 and seconds <= 0.25 * torch_import else "OVER TARGET (0.5 s, 0.25x)"
            print(f"{label:24s} {seconds:6.3f} s  ({seconds / torch_import:.2f}x import torch)  {verdict}")


if __name__ == "__main__":
    main()
