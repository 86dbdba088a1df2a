"""The history page: what changed between two sweeps, and one small plot per model of its furthest stage and
PCC over every run in the results database."""
from __future__ import annotations

import base64
import html
import io

from ..core import STAGES


def _plot_png(points: list) -> str:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4.2, 1.8))
    stage_ax = fig.subplots()
    xs = [p["run"] for p in points]
    stage_ax.plot(xs, [STAGES.index(p["furthest"]) if p["furthest"] in STAGES else -1 for p in points],
                  marker="o", color="#0969da", label="furthest stage")
    stage_ax.set_yticks(range(-1, len(STAGES)), ["none", *STAGES], fontsize=6)
    stage_ax.set_xticks(xs, [str(x) for x in xs], fontsize=6)
    stage_ax.set_xlabel("run", fontsize=7)
    pcc_ax = stage_ax.twinx()
    pcc_ax.plot(xs, [p["pcc"] if p["pcc"] is not None else float("nan") for p in points], marker="x",
                color="#cf222e", label="cpu pcc")
    pcc_ax.set_ylim(min([0.9] + [p["pcc"] for p in points if p["pcc"] is not None]) - 0.01, 1.005)
    pcc_ax.tick_params(labelsize=6)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    return base64.b64encode(buf.getvalue()).decode()


def history_page(series: dict, history) -> str:
    """`series` from results_db.series, `history` a results_db.History."""
    changes = "".join(
        f"<li class='{'bad' if c.regression else 'ok'}'>{html.escape(f'{c.model}/{c.frontend}/{c.params}')}: "
        f"{html.escape(c.kind)}: {html.escape(c.detail or '')}</li>" for c in history.changes) or "<li>no job changed</li>"
    cards = []
    for (model, frontend, params), points in sorted(series.items()):
        title = html.escape(f"{model} / {frontend} / {params}")
        cards.append(f"<figure><figcaption>{title}</figcaption><img alt='furthest stage and PCC of {title} per run' "
                     f"src='data:image/png;base64,{_plot_png(points)}'></figure>")
    style = ("<style>body{font:13px sans-serif}li.bad{color:#cf222e}figure{display:inline-block;margin:4px}"
             "figcaption{font-weight:bold}</style>")
    head = html.escape(history.text().splitlines()[0])
    return (f"<!doctype html><meta charset='utf-8'><title>ttbench history</title>{style}<h1>ttbench history</h1>"
            f"<p>{head}</p><ul>{changes}</ul>{''.join(cards)}")
