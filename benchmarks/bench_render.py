"""Issues 5 and 18: the HTML view of resnet50 and mobilenet_v2 (targets for resnet50: <= 2 MB, <= 2 s to build,
and <= 2 s to interactive in Chromium).

Per model: HTML bytes of the notebook view, generation seconds (median of 3, findings already computed), the
same for report.html (adds the plots), and side by side the baseline doing the same job with an off-the-shelf tool:
every stage's readable IR (the same text the view shows) highlighted to HTML by Pygments with mlir-pygments' lexer.
Then time to interactive of report.html in Debian's Chromium (Playwright; median of 3 fresh pages): from navigation
start to the end of the view's script (every op indexed, clicks answered), next to the same page's plain load
event with scripts off (what the page costs the browser without the script).
"""
import os
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


def time_to_interactive(path, n=3):
    """(median ms to the view's ready mark, median ms to the load event with JavaScript off)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))
    from browser import browser_page

    ready, plain = [], []
    for _ in range(n):
        with browser_page() as page:
            page.goto("file://" + path)
            ready.append(int(page.locator("div.ttb").first.get_attribute("data-ready-ms")))
        with browser_page(javascript=False) as page:
            page.goto("file://" + path)
            plain.append(_load_ms(page))
    return statistics.median(ready), statistics.median(plain)


def _load_ms(page) -> float:
    """The load event's time, read without page scripts (JavaScript is off in the page, not in Playwright's
    isolated world)."""
    return page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")


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
            interactive, plain = time_to_interactive(path)
            target = f"  target <=2s: {'met' if interactive <= 2000 else 'MISSED'}" if model == "resnet50" else ""
            print(f"  Chromium: interactive after {interactive:.0f} ms; the same page without its script loads in "
                  f"{plain:.0f} ms (ratio {interactive / plain:.2f}){target}")


if __name__ == "__main__":
    main()
