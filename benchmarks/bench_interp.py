"""Issue 25: ttbench's interpreter of the TTNN program against eager PyTorch, on the same inputs, side by side.

Per model: the TTNN interpretation (program already parsed: what a second run costs) and the parse, against the
eager forward of the model (target: interpretation <= 3x eager), medians of 3; and the wall time of
`compare_stages("stablehlo", "ttnn")` against the two separate whole runs it replaces (stablehlo on the PJRT CPU
client + ttnn interpreted). Bringups (the Tenstorrent compile) are not timed.
"""
import sys

import torch

import ttbench as tb
from _measure import median_seconds
from ttbench.tt.interp import interpret
from ttbench.tt.program import parse_program

MODELS = sys.argv[1:] or ["mobilenet_v2", "resnet50", "bert_tiny", "gpt2_small"]



def main():
    print(f"{'model':<14} {'eager s':>9} {'interp s':>9} {'ratio':>7} {'parse s':>8} {'compare s':>10} "
          f"{'2 runs s':>9} {'ratio':>7}")
    for name in MODELS:
        m, x = tb.models.load(name)
        b = tb.bringup(m, x, progress=False)
        text = b.stages["ttnn"].full_text()
        parse_s = median_seconds(lambda: parse_program("ttnn", text))
        program = parse_program("ttnn", text)
        args = list(b.argument_values)
        interpret(program, args)  # warm torch's kernels, as the eager side is warmed below
        with torch.no_grad():
            m(*x)
        interp_s = median_seconds(lambda: interpret(program, args))
        with torch.no_grad():
            eager_s = median_seconds(lambda: m(*x))
        b.run("stablehlo", device="cpu")  # the worker started once, for both sides
        two_s = median_seconds(lambda: (b.run("stablehlo", device="cpu"), b.run("ttnn", device="cpu")))
        compare_s = median_seconds(lambda: b.compare_stages("stablehlo", "ttnn"))
        print(f"{name:<14} {eager_s:>9.4f} {interp_s:>9.4f} {interp_s / eager_s:>6.2f}x {parse_s:>8.3f} "
              f"{compare_s:>10.2f} {two_s:>9.2f} {compare_s / two_s:>6.2f}x", flush=True)


if __name__ == "__main__":
    main()
