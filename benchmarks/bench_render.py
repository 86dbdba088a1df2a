"""Issue 5: the HTML view of resnet50 and mobilenet_v2 (targets for resnet50: <= 2 MB and <= 2 s).

Per model: HTML bytes of the notebook view, generation seconds (median of 3, findings already computed), the
same for report.html (adds the plots), and side by side the baseline doing the same job with an off-the-shelf tool:
every stage's readable IR (the same text the view shows) highlighted to HTML by Pygments with mlir-pygments' lexer.
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


def pygments_pages(b) -> str:
    """The baseline: every stage's readable text through Pygments (mlir-pygments' lexer for MLIR stages)."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers.special import TextLexer
    from mlir_pygments import MLIRLexer

    return "".join(highlight(s.text, MLIRLexer() if s.name in tb.core.MLIR_STAGES else TextLexer(), HtmlFormatter())
                   for s in b.stages.values() if s.ok)


def main():
    for model in MODELS:
        m, x = tb.models.load(model)
        b = tb.bringup(m, x, name=model)
        b.findings  # analysis is not rendering: computed once, before timing
        seconds, page = median_time(b._repr_html_)
        size = len(page.encode())
        base_s, base_page = median_time(lambda: pygments_pages(b), n=1)
        base_size = len(base_page.encode())
        targets = ""
        if model == "resnet50":
            targets = f"  targets <=2MB: {'met' if size <= 2e6 else 'MISSED'}, <=2s: {'met' if seconds <= 2 else 'MISSED'}"
        print(f"{model}: view {size / 1e6:.2f} MB in {seconds:.2f}s; Pygments+mlir-pygments on the same IR "
              f"{base_size / 1e6:.2f} MB in {base_s:.2f}s (ratios: size {size / base_size:.3f}, "
              f"time {seconds / base_s:.3f}){targets}")
        import os
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            report_s, path = median_time(lambda: b.save_html(os.path.join(tmp, "report.html")))
            print(f"  report.html {os.path.getsize(path) / 1e6:.2f} MB in {report_s:.2f}s (with plots)")


if __name__ == "__main__":
    main()
