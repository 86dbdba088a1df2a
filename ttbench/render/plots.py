"""Plots for reports: drawn with matplotlib (Agg), returned as base64 PNG so a page needs no files."""
from __future__ import annotations

import base64
import io


def stage_bars_png(b) -> str:
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    rows = [r for r in b.findings.summary().rows if r["status"] == "ok"]
    names = [r["stage"] for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 2.6))
    left.bar(names, [r.get("constant_bytes") or 0 for r in rows], color="#9a6700")
    left.set_title("constant bytes embedded per stage")
    left.set_yscale("symlog")
    right.bar(names, [(r.get("coverage") or 0) * 100 for r in rows], color="#8250df")
    right.set_title("location coverage (%)")
    right.set_ylim(0, 100)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()
