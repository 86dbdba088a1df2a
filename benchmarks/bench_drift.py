"""Issue 42: error attribution (`b.drift`) against one chained run of the same program, side by side.

Per model: one chained run of the TTNN program in bf16 in ttbench's interpreter (the program already parsed, as
drift has it: `interpret(..., precision="bf16")`), against a whole `b.drift()` (its own parse, the exact and
reduced runs, the bisection, the top parts alone) — medians of 3 each, and the runs drift made. The cost target:
within 20 chained runs, so the ratio stays near the run count whatever the model's size. Bringups (the
Tenstorrent compile) are not timed.
"""
import sys

import ttbench as tb
from _measure import median_seconds
from ttbench.tt.interp import interpret
from ttbench.tt.program import parse_program

MODELS = sys.argv[1:] or ["mobilenet_v2", "resnet18", "bert_tiny"]



def main():
    print(f"{'model':<14} {'ops':>6} {'chained s':>10} {'drift s':>9} {'runs':>5} {'ratio':>7}  verdict")
    for name in MODELS:
        m, x = tb.models.load(name)
        b = tb.bringup(m, x, progress=False)
        program = parse_program("ttnn", b.stages["ttnn"].full_text())
        args = list(b.argument_values)
        interpret(program, args, precision="bf16")  # warm torch's kernels for both sides
        chained_s = median_seconds(lambda: interpret(program, args, precision="bf16"))
        reports = []
        drift_s = median_seconds(lambda: reports.append(b.drift(progress=False)))
        r = reports[-1]
        print(f"{name:<14} {r.units:>6} {chained_s:>10.3f} {drift_s:>9.2f} {r.runs:>5} {drift_s / chained_s:>6.1f}x"
              f"  {r.verdict}", flush=True)


if __name__ == "__main__":
    main()
