"""Issue 7: ONNX models with inlined weights vs the same with their constants hoisted to arguments.

For each model: StableHLO text bytes, TTIR text bytes, TTNN flatbuffer bytes and bringup seconds, inline vs
hoisted (min_numel=1024, to=args). Repeats are interleaved (inline, hoisted, inline, hoisted, ...) so drift on a
shared machine hits both alike; seconds are medians, ratios hoisted/inline.

    python benchmarks/bench_hoist.py [--repeats N] [MODEL ...]      (default: 3, mobilenet_v2 resnet50)
"""
import statistics
import sys
import time

import ttbench as tb

ARGS = sys.argv[1:]
REPEATS = int(ARGS[ARGS.index("--repeats") + 1]) if "--repeats" in ARGS else 3
MODELS = [a for i, a in enumerate(ARGS) if a != "--repeats" and (i == 0 or ARGS[i - 1] != "--repeats")] or \
    ["mobilenet_v2", "resnet50"]


def measure(model, hoist):
    m, x = tb.models.load(model)
    t0 = time.perf_counter()
    b = tb.bringup(m, x, frontend="onnx", params="inline", hoist=hoist, name=model)
    seconds = time.perf_counter() - t0
    sizes = {s: len(b.stages[s].full_text().encode()) if b.stages[s].ok else None for s in ("stablehlo", "ttir")}
    ttnn = b.stages["ttnn"]
    sizes["flatbuffer"] = ttnn.meta.get("flatbuffer_bytes") if ttnn.ok else None
    return b, seconds, sizes


def main():
    for model in MODELS:
        inline_seconds, hoisted_seconds = [], []
        for _ in range(REPEATS):  # interleaved
            b_inline, s, inline = measure(model, None)
            inline_seconds.append(s)
            b_hoisted, s, hoisted = measure(model, dict(min_numel=1024, to="args"))
            hoisted_seconds.append(s)
        s_inline, s_hoisted = statistics.median(inline_seconds), statistics.median(hoisted_seconds)
        print(f"{model} (onnx, min_numel=1024 -> args): hoisted {len(b_hoisted.hoisted.tensors)} constants, "
              f"ok inline={b_inline.ok} hoisted={b_hoisted.ok}")
        for key in ("stablehlo", "ttir", "flatbuffer"):
            a, h = inline[key], hoisted[key]
            ratio = f"{h / a:.3f}" if a and h else "-"
            print(f"  {key:<10} inline {a or 0:>12,} B  hoisted {h or 0:>12,} B  ratio {ratio}")
        print(f"  bringup    inline {s_inline:10.1f} s   hoisted {s_hoisted:10.1f} s   ratio {s_hoisted / s_inline:.2f}"
              f"  (medians of {REPEATS})")


if __name__ == "__main__":
    main()
