"""Op by op against the compiler's own cost of the whole graph, side by side in one run (medians of REPEATS).

CPU (PJRT): for each model, `b.op_by_op()` (isolated: every unique op lowered, compiled and run against its golden)
beside `b.run("stablehlo")` (the whole graph lowered once, compiled and run once against its golden). Both go
through the same warm device worker (started once before timing: a notebook keeps it), both record the golden
(one eager or onnxruntime run). Targets: median per-unique-op time <= 0.1 s; whole op by op <= 5x the whole run.

TT (compile-only): `b.op_by_op(device="tt")` per unique op (its rows' seconds, the plugin started once per call)
beside the plugin's own compile of the whole model's StableHLO in one plugin session started beforehand.
Target: <= 1 s per unique op.

    python benchmarks/bench_op_by_op.py [REPEATS] [--no-tt]      (default: 3)
"""
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from _measure import median  # noqa: E402

import ttbench as tb  # noqa: E402
from ttbench.stages.tt import handed_over_text  # noqa: E402
from ttbench.run.whole import pjrt_text  # noqa: E402
from ttbench.run.devices import device  # noqa: E402
from ttbench.tt import plugin as tt_plugin  # noqa: E402

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
REPEATS = int(ARGS[0]) if ARGS else 3
CPU_MODELS = [("bert_tiny", "export"), ("resnet50", "export"), ("mobilenet_v2", "onnx")]
TT_MODELS = [("bert_tiny", "export"), ("mobilenet_v2", "export")]


def timed(fn):
    t0 = time.perf_counter()
    value = fn()
    return time.perf_counter() - t0, value


def cpu_row(name: str, frontend: str) -> str:
    model, inputs = tb.models.load(name)
    b = tb.bringup(model, inputs, frontend=frontend, tt=False, name=name)
    assert b.ok, b.table()
    assert b.run().ok  # the worker started and warm before any timing
    whole, by_op, per_op = [], [], []
    for _ in range(REPEATS):  # interleaved: drift on a shared machine hits both alike
        whole.append(timed(lambda: b.run())[0])
        seconds, report = timed(lambda: b.op_by_op(progress=False))
        assert not report.failed(), [r.error for r in report.failed()][:3]
        by_op.append(seconds)
        per_op.append(statistics.median(r.seconds for r in report.rows))
    ratio = median(by_op) / median(whole)
    return (f"{name + ' (' + frontend + ')':24} {len(report.rows):>6} {report.total_ops:>6} {median(per_op):>9.3f} "
            f"{median(by_op):>9.1f} {median(whole):>8.2f} {ratio:>7.1f}x")


def tt_row(name: str, frontend: str) -> str:
    model, inputs = tb.models.load(name)
    b = tb.bringup(model, inputs, frontend=frontend, tt=False, name=name)
    whole_text = pjrt_text(handed_over_text(b.stages["stablehlo"], b.arguments, "args"))
    by_op, per_op, whole = [], [], []
    for _ in range(REPEATS):
        seconds, report = timed(lambda: b.op_by_op(device="tt", progress=False))
        by_op.append(seconds)
        per_op.append(statistics.median(r.seconds for r in report.rows))
        with tt_plugin.CompileSession() as session:
            session.compile(whole_text, tempfile.mkdtemp(prefix="bench-obo-"), 600)  # pays the plugin's start
            seconds, compiled = timed(lambda: session.compile(whole_text, tempfile.mkdtemp(prefix="bench-obo-"), 600))
            assert compiled.ok, compiled.error
            whole.append(seconds)
    reached = sum(r.furthest_stage == "flatbuffer" for r in report.rows)
    return (f"{name + ' (' + frontend + ')':24} {len(report.rows):>6} {reached:>9} {median(per_op):>9.3f} "
            f"{median(by_op):>9.1f} {median(whole):>12.2f}")


if __name__ == "__main__":
    print(f"CPU op by op vs the whole graph compiled and run once; medians of {REPEATS}")
    print(f"{'model':24} {'unique':>6} {'total':>6} {'s/op':>9} {'op by op':>9} {'whole':>8} {'ratio':>8}")
    for name, frontend in CPU_MODELS:
        print(cpu_row(name, frontend), flush=True)
    print("targets: s/op (median per unique op) <= 0.1; ratio (op by op / whole run) <= 5x")
    tt = device("tt")
    if "--no-tt" not in sys.argv and (tt.usable or tt.compiles):
        tt_plugin.system_descriptor()  # made once and cached, before any timing
        print(f"\nTT compile-only op by op (one plugin start per call) vs the plugin compiling the whole model "
              f"(started beforehand); medians of {REPEATS}")
        print(f"{'model':24} {'unique':>6} {'flatbuf':>9} {'s/op':>9} {'op by op':>9} {'whole compile':>12}")
        for name, frontend in TT_MODELS:
            print(tt_row(name, frontend), flush=True)
        print("target: s/op <= 1")
