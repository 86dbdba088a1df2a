"""Issue 6: running resnet50 on the CPU PJRT device.

Whole graph: StableHLO compile and run seconds (median of 3 runs in one worker) and PCC against PyTorch.
Op by op (isolated): unique ops / total ops and total seconds; the target is <= 180 s, reached by deduplicating
ops and reusing one worker process. Printed side by side with the eager PyTorch forward for scale.
"""
import statistics
import sys
import time

import torch

import ttbench as tb

MODEL = sys.argv[1] if len(sys.argv) > 1 else "resnet50"


def main():
    m, x = tb.models.load(MODEL)
    t0 = time.perf_counter()
    b = tb.bringup(m, x, params="args", tt=False)
    bringup_s = time.perf_counter() - t0
    runs = [b.run("stablehlo", device="cpu") for _ in range(3)]  # the first includes the worker start
    eager = []
    for _ in range(3):
        t = time.perf_counter()
        with torch.no_grad():
            m(*x)
        eager.append(time.perf_counter() - t)
    compile_s = statistics.median(r.compile_seconds for r in runs)
    run_s = statistics.median(r.run_seconds for r in runs)
    eager_s = statistics.median(eager)
    print(f"{MODEL}: bringup (export, params=args, no TT) {bringup_s:.1f}s")
    print(f"whole graph on cpu: compile {compile_s:.2f}s, run {run_s * 1000:.1f} ms "
          f"(eager PyTorch {eager_s * 1000:.1f} ms, ratio {run_s / eager_s:.2f}), pcc {runs[0].pcc:.9f}, "
          f"ok {all(r.ok for r in runs)}")
    t = time.perf_counter()
    report = b.op_by_op(device="cpu", progress=False)
    total = time.perf_counter() - t
    print(f"op-by-op isolated: {len(report.rows)} unique ops / {report.total_ops} ops "
          f"(dedup ratio {len(report.rows) / report.total_ops:.2f}), {total:.1f}s total "
          f"({total / len(report.rows):.2f}s per unique op), target <= 180s: {'met' if total <= 180 else 'MISSED'}")
    print(f"  {len(report.rows) - len(report.failed())} pass, {len(report.failed())} fail; "
          f"min pcc {min(r.pcc for r in report.rows if r.pcc is not None):.6f}")
    for r in report.failed()[:5]:
        print(f"  FAIL #{r.index} {r.op}: {r.error}")


if __name__ == "__main__":
    main()
