"""Plots for reports: drawn with matplotlib's object API (a Figure with its own Agg canvas: the kernel's backend
and pyplot's figure list are left alone), returned as base64 PNG so a page needs no files."""
from __future__ import annotations

import base64
import functools
import io

from ..core import human_bytes


@functools.lru_cache(maxsize=None)
def _notebook_figure_class():
    from matplotlib.figure import Figure

    class NotebookFigure(Figure):
        def _repr_png_(self) -> bytes:
            buffer = io.BytesIO()
            self.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
            return buffer.getvalue()

    return NotebookFigure


def notebook_figure(**kwargs):
    """A matplotlib Figure that a notebook shows as a picture when it is a cell's result (a bare Figure only prints
    `<Figure size ...>` unless pyplot's inline backend is active, which ttbench does not switch on for the user)."""
    return _notebook_figure_class()(**kwargs)


PCC_ERROR_FLOOR = 1e-7  # 1 - PCC below this is float32 rounding of equal values: drawn on the floor


def draw_pcc_errors(ax, pccs: list, names: list, colours: list, min_pcc: float, label_worst: int = 5) -> None:
    """1 - PCC per op on a log axis, so that 0.9999 and 0.999999 lie far apart rather than on one flat row at 1.0;
    the threshold as a line; the ops with the largest error named beside their dots, and every op's name on the
    axis where they fit. An op without a PCC is left out and counted in the legend."""
    xs = [i for i, p in enumerate(pccs) if p is not None]
    ys = [max(1.0 - pccs[i], PCC_ERROR_FLOOR) for i in xs]
    ax.scatter(xs, ys, c=[colours[i] for i in xs], s=12)
    ax.axhline(1.0 - min_pcc, color="gray", linestyle="--", linewidth=1, label=f"threshold: pcc {min_pcc}")
    ax.set_yscale("log")
    ax.set_ylim(PCC_ERROR_FLOOR / 2, max(ys + [1.0 - min_pcc]) * 4)
    worst = sorted((y, x) for x, y in zip(xs, ys) if y > PCC_ERROR_FLOOR)[-label_worst:]
    for y, x in worst:
        ax.annotate(names[x], (x, y), fontsize=7, xytext=(4, 3), textcoords="offset points")
    if len(names) <= 40:
        ax.set_xticks(range(len(names)), names, rotation=90, fontsize=7)
    missing = len(pccs) - len(xs)
    if missing:
        ax.plot([], [], " ", label=f"{missing} op(s) without a PCC (not drawn)")
    ax.legend(loc="upper left", fontsize=7)


def stage_bars_png(b) -> str:
    fig = stage_bars(b)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    return base64.b64encode(buf.getvalue()).decode()


def stage_bars(b):
    """Constant bytes (embedded, held) and location coverage per stage, side by side: a Figure."""
    from matplotlib.figure import Figure

    rows = [r for r in b.findings.summary().rows if r["status"] == "ok"]
    names = [r["stage"] for r in rows]
    fig = Figure(figsize=(9, 2.6))
    left, right = fig.subplots(1, 2)
    # Both figures, side by side and named: a splat embeds one element but the device holds all of them.
    where = range(len(names))
    embedded = [r.get("embedded_bytes") or 0 for r in rows]
    held = [r.get("constant_bytes") or 0 for r in rows]
    for shift, values, colour, label in ((-0.2, embedded, "#9a6700", "embedded in the IR"),
                                         (0.2, held, "#d4a72c", "held on the device")):
        bars = left.bar([i + shift for i in where], values, width=0.4, color=colour, label=label)
        left.bar_label(bars, [human_bytes(v) if v else "" for v in values], fontsize=6)
    left.set_xticks(list(where), names)
    left.set_title("constant bytes per stage")
    left.set_yscale("symlog")
    left.set_ylim(0, max(embedded + held + [1]) * 20)  # room above the tallest bar for its label
    left.legend(fontsize=7)
    right.bar(names, [(r.get("coverage") or 0) * 100 for r in rows], color="#8250df")
    right.set_title("location coverage (%)")
    right.set_ylim(0, 100)
    fig.tight_layout()
    return fig
