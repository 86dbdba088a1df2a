"""Issue 8: diffing two resnet50 export folders with a real change between them (target: <= 5 s here).

Side a is the model as loaded; side b has a real change: its first ReLU module became a GELU, and one weight moved
by 1e-3. Both are brought up (params=args, with the TT stages) and exported, then diffed 3 times; the median is
printed next to the time `diff -r` takes on the same folders (the raw text comparison users give up on), with
whether each tool shows the op change and the weight change.
"""
import statistics
import subprocess
import sys
import tempfile
import time

import ttbench as tb
from ttbench.diff import diff_folders

MODEL = sys.argv[1] if len(sys.argv) > 1 else "resnet50"


def change(model) -> None:
    """A real edit: the first ReLU module becomes a GELU, and the first weight moves by 1e-3."""
    import torch

    for parent in model.modules():
        for name, child in parent.named_children():
            if isinstance(child, torch.nn.ReLU):
                setattr(parent, name, torch.nn.GELU())
                break
        else:
            continue
        break
    with torch.no_grad():
        next(model.parameters()).add_(1e-3)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        folders = []
        for side in ("a", "b"):
            m, x = tb.models.load(MODEL)
            if side == "b":
                change(m)
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
        op_change = any("gelu" in str(c).lower() or "erf" in str(c).lower() for s in d.stages for c in s.op_changes)
        print(f"{MODEL}: ttbench diff median {median:.2f}s (target <= 5s: {'met' if median <= 5 else 'MISSED'}); "
              f"op change found: {op_change}, weight change found: {bool(d.weights)}; `diff -r` {raw_s:.2f}s with "
              f"{changed_lines} changed lines, weights.safetensors only as 'binary files differ' "
              f"(ratio ttbench/diff -r time {median / max(raw_s, 1e-9):.1f})")


if __name__ == "__main__":
    main()
