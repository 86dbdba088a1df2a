"""Issue 5: the HTML view of resnet50 and mobilenet_v2 (targets for resnet50: <= 2 MB and <= 2 s).

Per model: HTML bytes of the notebook view, generation seconds (median of 3, findings already computed), the
same for report.html (adds the plots), and the ratio to the printed IR with weights (every stage's full text,
weights printed as hex: what `print(module)` on the inline module gives).
"""
import statistics
import sys
import time

import ttbench as tb

MODELS = sys.argv[1:] or ["resnet50", "mobilenet_v2"]


def median_time(fn, n=3):
    times, out = [], None
    for _ in range(n):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def main():
    for model in MODELS:
        m, x = tb.models.load(model)
        b = tb.bringup(m, x, name=model)
        b.findings  # analysis is not rendering: computed once, before timing
        seconds, page = median_time(b._repr_html_)
        ir = sum(len(s.full_text()) for s in b.stages.values() if s.ok)
        weights = sum(t.numel() * t.element_size() for t in b.weights().values())
        raw = ir + 2 * weights
        size = len(page.encode())
        targets = ""
        if model == "resnet50":
            targets = f"  targets <=2MB: {'met' if size <= 2e6 else 'MISSED'}, <=2s: {'met' if seconds <= 2 else 'MISSED'}"
        print(f"{model}: view {size / 1e6:.2f} MB in {seconds:.2f}s; printed IR with weights {raw / 1e6:.1f} MB "
              f"(ratio {size / raw:.4f}){targets}")
        import os
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            report_s, path = median_time(lambda: b.save_html(os.path.join(tmp, "report.html")))
            print(f"  report.html {os.path.getsize(path) / 1e6:.2f} MB in {report_s:.2f}s (with plots)")


if __name__ == "__main__":
    main()
