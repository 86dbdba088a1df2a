"""ttbench up to stablehlo vs the bare torch-mlir route doing the same work, side by side in one run.

    python benchmarks/bench_capture.py [MODEL] [REPEATS]      (default: resnet50 3)

Like for like: ttbench keeps weights as function arguments (params="args"), so the baseline is torch-mlir's
`export_and_import` of the same model with its weights as arguments too (a functional_call wrapper taking them as
inputs). The raw call a user would make first (every weight inlined) is printed on a second line, labelled: it
measures the weight mode, not ttbench. Each measurement runs in a fresh process, so peak RSS is that of one call.
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
RAW_ARGS = SETUP + """
import torch_mlir.fx
def work(state):
    model, inputs = state
    weights = {**dict(model.named_parameters()), **dict(model.named_buffers())}

    class WeightsAsArguments(torch.nn.Module):
        def forward(self, weights, *xs):
            return torch.func.functional_call(model, weights, xs)

    torch_mlir.fx.export_and_import(WeightsAsArguments(), weights, *inputs, output_type="stablehlo")
    return {}
"""
RAW_INLINE = SETUP + """
import torch_mlir.fx
def work(state):
    model, inputs = state
    torch_mlir.fx.export_and_import(model, *inputs, output_type="stablehlo")
    return {}
"""
TT, ARGS, INLINE = ("ttbench.bringup (params=args)", "torch-mlir, weights as args", "torch-mlir, weights inlined")

if __name__ == "__main__":
    rows = {TT: [], ARGS: [], INLINE: []}
    for i in range(REPEATS):  # interleaved, so drift on a shared machine hits all alike
        rows[TT].append(in_child(TTBENCH))
        rows[ARGS].append(in_child(RAW_ARGS))
        rows[INLINE].append(in_child(RAW_INLINE))
        print(f"  round {i + 1}/{REPEATS} done", file=sys.stderr)
    print(f"{MODEL}: capture to stablehlo, median of {REPEATS} (fresh process each)")
    print(f"{'':34} {'seconds':>9} {'peak RSS MB':>12}")
    med = {}
    for name, results in rows.items():
        med[name] = (median([r["seconds"] for r in results]), median([r["peak_rss_mb"] for r in results]))
        print(f"{name:34} {med[name][0]:9.2f} {med[name][1]:12.0f}")
    print(f"like for like (weights as arguments), time ratio ttbench/torch-mlir: {med[TT][0] / med[ARGS][0]:.3f}")
    print(f"for the record, against the inlined-weights call: {med[TT][0] / med[INLINE][0]:.3f}  (not like for like)")
    print(f"ttbench peak RSS: {med[TT][1] / 1024:.2f} GB")
    print(f"ttbench stablehlo text: {rows[TT][0]['text_bytes'] / 1e3:.0f} KB")
