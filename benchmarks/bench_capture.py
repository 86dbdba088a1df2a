"""ttbench up to stablehlo vs the bare torch-mlir route doing the same work, side by side in one run.

    python benchmarks/bench_capture.py [MODEL ...] [--repeats N]      (default: resnet50 bert_tiny gpt2_small, 3)

Like for like: ttbench keeps weights as function arguments (params="args"), so the baseline is torch-mlir's own
route with weights as arguments too: torch.export, run_decompositions with torch-mlir's table, then
`torch_mlir.fx.stateless_fx_import` of the exported graph (its weights are placeholders, as in ttbench) to
StableHLO. (A functional_call wrapper through `export_and_import` failed on bert_tiny: "Could not find state
mapping for buffer".) The raw call a user would make first (every weight inlined) is printed on a second line, labelled: it
measures the weight mode, not ttbench. Each measurement runs in a fresh process, so peak RSS is that of one call.

ttbench is measured in both of its modes: as in a notebook (the eager check in a fork, the lowering in a pass
worker: their memory is the children's, not counted in the peak RSS) and as inside a sweep or tracker job
(TTBENCH_DISPOSABLE_JOB=1: the job process is the container, so both run in it, as the bare route does).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _measure import in_child, median  # noqa: E402

ARGS_GIVEN = sys.argv[1:]
REPEATS = int(ARGS_GIVEN[ARGS_GIVEN.index("--repeats") + 1]) if "--repeats" in ARGS_GIVEN else 3
MODELS = [a for i, a in enumerate(ARGS_GIVEN) if not a.startswith("--") and (i == 0 or ARGS_GIVEN[i - 1] != "--repeats")] \
    or ["resnet50", "bert_tiny", "gpt2_small"]

SETUP = """
import torch, ttbench as tb
def setup():
    return tb.models.load(MODEL)
"""
TTBENCH = SETUP + """
import torch_mlir.fx  # loaded before the timing, as the bare route's own imports are
from torch_mlir.extras.fx_decomp_util import get_decomposition_table
import ttbench.pipeline  # ttbench's own, for the same reason (`tb.bringup` loads it on first use)
def work(state):
    b = tb.bringup(*state, tt=False)
    assert b.ok, b.table()
    return {"text_bytes": len(b.stages["stablehlo"].text.encode())}
"""
# the same work inside a disposable job: what the sweep's job process sets for itself (sweep._child)
TTBENCH_IN_JOB = "import os\nos.environ['TTBENCH_DISPOSABLE_JOB'] = '1'\n" + TTBENCH
RAW_ARGS = SETUP + """
import torch_mlir.fx
from torch_mlir.extras.fx_decomp_util import get_decomposition_table
def work(state):
    model, inputs = state
    program = torch.export.export(model, tuple(inputs), strict=False).run_decompositions(get_decomposition_table())
    torch_mlir.fx.stateless_fx_import(program.graph_module, output_type="stablehlo")
    return {}
"""
RAW_INLINE = SETUP + """
import torch_mlir.fx
def work(state):
    model, inputs = state
    torch_mlir.fx.export_and_import(model, *inputs, output_type="stablehlo")
    return {}
"""
TT, TT_JOB, ARGS, INLINE = ("ttbench.bringup (params=args)", "ttbench.bringup inside a job",
                             "torch-mlir, weights as args", "torch-mlir, weights inlined")


def measure(model: str, code: str):
    try:
        return in_child(f"MODEL = {model!r}\n" + code)
    except RuntimeError as exc:  # the bare call itself failed on this model: say so, once
        return {"failed": (str(exc).strip().splitlines() or ["?"])[-1][:120]}


def report(model: str) -> None:
    rows = {TT: [], TT_JOB: [], ARGS: [], INLINE: []}
    for i in range(REPEATS):  # interleaved, so drift on a shared machine hits all alike
        for name, code in ((TT, TTBENCH), (TT_JOB, TTBENCH_IN_JOB), (ARGS, RAW_ARGS), (INLINE, RAW_INLINE)):
            rows[name].append(measure(model, code))
        print(f"  {model}: round {i + 1}/{REPEATS} done", file=sys.stderr)
    print(f"\n{model}: capture to stablehlo, median of {REPEATS} (fresh process each)")
    print(f"{'':34} {'seconds':>9} {'peak RSS MB':>12}")
    med = {}
    for name, results in rows.items():
        failed = next((r["failed"] for r in results if "failed" in r), None)
        if failed:
            print(f"{name:34} failed: {failed}")
            continue
        med[name] = (median([r["seconds"] for r in results]), median([r["peak_rss_mb"] for r in results]))
        print(f"{name:34} {med[name][0]:9.2f} {med[name][1]:12.0f}")
    if TT in med and ARGS in med:
        print(f"like for like (weights as arguments), time ratio ttbench/torch-mlir: {med[TT][0] / med[ARGS][0]:.3f}"
              f"  (as in a notebook); peak RSS ratio {med[TT][1] / med[ARGS][1]:.2f}")
    if TT_JOB in med and ARGS in med:
        print(f"inside a job (no fork, no pass worker), time ratio ttbench/torch-mlir: "
              f"{med[TT_JOB][0] / med[ARGS][0]:.3f}  (target <= 1.0); peak RSS ratio {med[TT_JOB][1] / med[ARGS][1]:.2f}")
    if TT in med and INLINE in med:
        print(f"for the record, against the inlined-weights call: {med[TT][0] / med[INLINE][0]:.3f}  "
              f"(not like for like)")


if __name__ == "__main__":
    for name in MODELS:
        report(name)
