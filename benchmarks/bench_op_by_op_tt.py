"""Op by op through the Tenstorrent compiler (compile-only, no chip) and ONNX op by op on the CPU.

1. MODEL (default resnet50) through `b.op_by_op(device="tt")`: wall seconds, unique/total ops, how far they get.
   Target: <= 5 minutes here.
2. Side by side on the same SAMPLE one-op StableHLO modules (the texts that run handed the compiler): one plugin
   process for all of them (tt_plugin.CompileSession, what op by op uses) vs one plugin start per op
   (tt_plugin.compile_stablehlo, what a loop over the whole-graph path would do). Same texts, same descriptor,
   same tt-metal cache; medians per op, and the ratio; the per-op-start time of the whole model is projected from
   its median.
3. mobilenet_v2 ONNX op by op on the CPU: unique/total nodes and seconds.

    python benchmarks/bench_op_by_op_tt.py [MODEL] [SAMPLE]      (default: resnet50 12)
"""
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from _measure import median  # noqa: E402

import ttbench as tb  # noqa: E402
from ttbench.tt import plugin as tt_plugin  # noqa: E402
from ttbench.run.whole import pjrt_text  # noqa: E402

MODEL = sys.argv[1] if len(sys.argv) > 1 else "resnet50"
SAMPLE = int(sys.argv[2]) if len(sys.argv) > 2 else 12


def compile_each(texts, compile_one) -> list:
    seconds = []
    for text in texts:
        work = tempfile.mkdtemp(prefix="bench-op-tt-")
        try:
            t0 = time.perf_counter()
            compiled = compile_one(text, work)
            seconds.append(time.perf_counter() - t0)
            assert compiled.files, compiled.error  # it got somewhere: the same work on both sides
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return seconds


if __name__ == "__main__":
    tt_plugin.system_descriptor()  # made once and cached, before any timing
    model, inputs = tb.models.load(MODEL)
    b = tb.bringup(model, inputs, tt=False, name=MODEL)
    texts = []

    def keep(text, op, node):
        texts.append(text)
        return text

    t0 = time.perf_counter()
    report = b.op_by_op(device="tt", transform=keep, progress=False)
    wall = time.perf_counter() - t0
    stages = {}
    for r in report.rows:
        stages[r.furthest_stage] = stages.get(r.furthest_stage, 0) + 1
    print(f"{MODEL} TT compile-only op by op: {len(report.rows)} unique ops of {report.total_ops}, "
          f"{wall:.1f} s wall (target <= 300 s); furthest stages: {stages}")
    for r in report.failed()[:5]:
        print(f"  #{r.index} {r.op} ({', '.join(r.locations[:1])}): {r.error[:160]}")

    sample = [pjrt_text(t) for t in texts[:SAMPLE]]
    with tt_plugin.CompileSession() as session:
        start = time.perf_counter()
        session.compile(sample[0], tempfile.mkdtemp(prefix="bench-op-tt-"), 300)  # the plugin's start, once
        start = time.perf_counter() - start
        shared = compile_each(sample, lambda text, work: session.compile(text, work, 300))
    per_start = compile_each(sample, lambda text, work: tt_plugin.compile_stablehlo(text, work, 300))
    ratio = median(per_start) / median(shared)
    n = len(report.rows)
    print(f"same {len(sample)} one-op modules: one plugin process {median(shared) * 1000:.0f} ms/op (median; "
          f"start {start:.1f} s once) vs one plugin start per op {median(per_start):.2f} s/op: {ratio:.0f}x")
    print(f"projected for all {n} unique ops: compiles alone {start + n * median(shared):.0f} s in one process vs "
          f"{n * median(per_start):.0f} s with a start per op")

    onnx_model, onnx_inputs = tb.models.load("mobilenet_v2")
    ob = tb.bringup(onnx_model, onnx_inputs, frontend="onnx", tt=False, name="mobilenet_v2")
    t0 = time.perf_counter()
    onnx_report = ob.op_by_op(progress=False)
    print(f"mobilenet_v2 ONNX op by op on cpu: {len(onnx_report.rows)} unique nodes of {onnx_report.total_ops}, "
          f"{len(onnx_report.failed())} fail, {time.perf_counter() - t0:.1f} s")
