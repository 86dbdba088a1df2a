"""ttbench up to stablehlo vs the raw torch-mlir call a user would make instead, side by side in one run.

    python benchmarks/bench_capture.py [MODEL] [REPEATS]      (default: resnet50 3)

Targets on resnet50: ttbench <= 0.2x the raw call's time, ttbench peak RSS <= 1.5 GB.
Each measurement runs in a fresh process, so peak RSS is that of one call.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _measure import in_child, median  # noqa: E402

MODEL = sys.argv[1] if len(sys.argv) > 1 else "resnet50"
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 3

SETUP = f"""
import torch, ttbench as tb
def setup():
    return tb.models.load({MODEL!r})
"""
TTBENCH = SETUP + """
def work(state):
    b = tb.bringup(*state, tt=False)
    assert b.ok, b.table()
    return {"text_bytes": len(b.stages["stablehlo"].text.encode())}
"""
RAW = SETUP + """
import torch_mlir.fx
def work(state):
    model, inputs = state
    module = torch_mlir.fx.export_and_import(model, *inputs, output_type="stablehlo")
    return {}
"""

if __name__ == "__main__":
    rows = {"ttbench.bringup (params=args)": [], "torch_mlir.fx.export_and_import": []}
    for i in range(REPEATS):  # interleaved, so drift on a shared machine hits both alike
        rows["ttbench.bringup (params=args)"].append(in_child(TTBENCH))
        rows["torch_mlir.fx.export_and_import"].append(in_child(RAW))
        print(f"  round {i + 1}/{REPEATS} done", file=sys.stderr)
    print(f"{MODEL}: capture to stablehlo, median of {REPEATS} (fresh process each)")
    print(f"{'':34} {'seconds':>9} {'peak RSS MB':>12}")
    med = {}
    for name, results in rows.items():
        med[name] = (median([r["seconds"] for r in results]), median([r["peak_rss_mb"] for r in results]))
        print(f"{name:34} {med[name][0]:9.2f} {med[name][1]:12.0f}")
    t_ratio = med["ttbench.bringup (params=args)"][0] / med["torch_mlir.fx.export_and_import"][0]
    print(f"time ratio ttbench/raw: {t_ratio:.3f}  (target <= 0.2)")
    print(f"ttbench peak RSS: {med['ttbench.bringup (params=args)'][1] / 1024:.2f} GB  (target <= 1.5 GB)")
    print(f"ttbench stablehlo text: {rows['ttbench.bringup (params=args)'][0]['text_bytes'] / 1e3:.0f} KB")
