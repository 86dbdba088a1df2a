"""Issue 7: ONNX models with inlined weights vs the same with their constants hoisted to arguments.

For each model: StableHLO text bytes, TTIR text bytes, TTNN flatbuffer bytes and bringup seconds, inline vs
hoisted (min_numel=1024, to=args), each measured in the same process one after the other; ratios hoisted/inline.
"""
import sys
import time

import ttbench as tb

MODELS = sys.argv[1:] or ["mobilenet_v2", "resnet50"]


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
        b_inline, s_inline, inline = measure(model, None)
        b_hoisted, s_hoisted, hoisted = measure(model, dict(min_numel=1024, to="args"))
        print(f"{model} (onnx, min_numel=1024 -> args): hoisted {len(b_hoisted.hoisted.tensors)} constants, "
              f"ok inline={b_inline.ok} hoisted={b_hoisted.ok}")
        for key in ("stablehlo", "ttir", "flatbuffer"):
            a, h = inline[key], hoisted[key]
            ratio = f"{h / a:.3f}" if a and h else "-"
            print(f"  {key:<10} inline {a or 0:>12,} B  hoisted {h or 0:>12,} B  ratio {ratio}")
        print(f"  bringup    inline {s_inline:10.1f} s   hoisted {s_hoisted:10.1f} s   ratio {s_hoisted / s_inline:.2f}")


if __name__ == "__main__":
    main()
