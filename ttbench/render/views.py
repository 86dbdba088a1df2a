"""Every view of ttbench's records, in one table (`VIEWS`): which record shows how (notebook HTML, HTML files,
graphs, plots). The records (core, pipeline, analysis, run, diff) declare their view methods in their class bodies
and import nothing of render/; importing ttbench loads this module, which fills the table, so `b` in a notebook,
`b.save_html(...)`, `stage.graph()`, `report.plot()` and `tb.diff(...).save_html(...)` work."""
from __future__ import annotations

import base64
import html
import io
from typing import Optional

from ..analysis.op_kinds import op_kind
from ..core import VIEWS, cell_text, human_bytes
from ..diff import summary_lines
from ..io.atomic import write_text_atomic
from ..io.export import STAGE_TABLE_COLUMNS, clipped_error
from ..records.levels import counted
from ..records.results import FURTHEST_STAGES, OP_COLUMNS
from .bringup_html import render_bringup, standalone
from .graph import stage_graph as draw
from .model_explorer import explorer_files, serve
from .netron_view import show
from .plots import PCC_ERROR_FLOOR, draw_pcc_errors
from .tables import html_table


# --- Bringup --------------------------------------------------------------------------------------------------

def bringup_repr_html(b) -> str:
    return render_bringup(b)


def bringup_save_html(b, path: str, plots: bool = True, also=()) -> str:
    """report.html: the same view as in the notebook, one self-contained file (no network to open it); `also`:
    further views (a drift report) shown after it."""
    body = render_bringup(b, plots=plots) + "".join(v._repr_html_() for v in also)
    return write_text_atomic(path, standalone(body, f"ttbench · {b.model_name}"))


def save_page(path: str, *views, title: str = "ttbench") -> str:
    """Several views on one self-contained page (two bringups side by side in one file, a bringup and its op-by-op
    report, ...): each object's notebook HTML, in order. Ids stay unique: each bringup view has its own prefix."""
    missing = [type(v).__name__ for v in views if not hasattr(v, "_repr_html_")]
    if not views or missing:
        raise TypeError(f"save_html(path, *views) takes objects ttbench can show, got {missing or 'none'}")
    return write_text_atomic(path, standalone("".join(v._repr_html_() for v in views), title))


# --- Stage ----------------------------------------------------------------------------------------------------

def stage_graph(stage, max_nodes: int = 300, op_filter: Optional[str] = None, kind: Optional[str] = None,
                bookkeeping: bool = False):
    """The stage as a graph (graphviz SVG, or DOT text when `dot` is missing), coloured by finding kind; transfers,
    layouts and frees drawn with bookkeeping=True."""
    b = stage.bringup()
    findings = b.findings if b is not None else None
    return draw(stage, findings, max_nodes=max_nodes, op_filter=op_filter, kind=kind, bookkeeping=bookkeeping)


def stage_netron(stage, port: int = 0, height: int = 600):
    """The onnx stage in netron, served on 127.0.0.1 and shown in an IFrame (stop with tb.netron_stop())."""
    return show(stage, port=port, height=height)


def stage_explorer(stage, report=None, port: int = 0, height: int = 700, bookkeeping: bool = False):
    """The stage in Google's Model Explorer, with ttbench's overlays (findings; const-eval on TTNN; `report`'s
    op-by-op results on fx/onnx, or a StageComparison's per-op PCC on its later stage, e.g. ttnn), served on
    127.0.0.1; shown as an IFrame. Bookkeeping ops (transfers, layouts, frees) are drawn with bookkeeping=True.
    Stop with tb.explorer_stop()."""
    return serve(stage, report=report, port=port, height=height, bookkeeping=bookkeeping)


# --- findings, runs -------------------------------------------------------------------------------------------

# What a notebook cell shows at first, without scrolling sideways; the rest is one click away.
SUMMARY_AT_A_GLANCE = ("stage", "status", "ops", "inplace", "verifier", "constants", "constant_bytes",
                       "weights_inlined", "coverage")


def summary_repr_html(summary) -> str:
    meanings = summary.meanings()
    columns = list(meanings)
    cells = summary._cells()
    shown = [columns.index(c) for c in SUMMARY_AT_A_GLANCE]
    glance = html_table(list(SUMMARY_AT_A_GLANCE), [[row[i] for i in shown] for row in cells],
                        cls="ttbench-summary", titles=meanings)
    legend = "".join(f"<dt>{html.escape(c)}</dt><dd>{html.escape(meaning)}</dd>" for c, meaning in meanings.items())
    return (glance + f"<details><summary>all {len(columns)} columns, and what each means</summary>"
            + html_table(columns, cells, cls="ttbench-summary", titles=meanings)
            + f"<dl class='ttbench-legend'>{legend}</dl></details>")


def run_result_repr_html(r) -> str:
    cols = ["output", "shape", "pcc", "max_abs_error", "max_rel_error", "allclose", "ok"]
    rows = [[i] + [o.get(c) for c in cols[1:]] for i, o in enumerate(r.outputs)]
    caption = f"{r.model} · {r.stage} on {r.device}: {'ok' if r.ok else 'FAILED'} — {r.message}"
    return html_table(cols, rows, caption, cls="ttbench-run")


def placement_repr_html(report) -> str:
    """Counts by placement, then every op with its line: where the compiler put each result."""
    counts = html_table(["placement", "ops"], list(report.counts().items()), report.summary().splitlines()[0],
                        cls="ttbench-run")
    columns = ["index", "op", "location", "module", "placement", "const_eval"]
    rows = [[getattr(p, c) for c in columns] for p in report.ops]
    unread = (f"<p>{len(report.unread)} results whose layout ttbench could not read, not counted (first: "
              f"{html.escape(report.unread[0])})</p>") if report.unread else ""
    return counts + unread + f"<details><summary>all {len(rows)} ops</summary>" + \
        html_table(columns, rows, cls="ttbench-run") + "</details>"


def memory_repr_html(report) -> str:
    """The verdict and peaks, then every op with its live bytes (the one that does not fit first marked)."""
    head = "".join(f"<p>{html.escape(line.strip())}</p>" for line in report.summary().splitlines())
    over = report.first_overflow
    columns = ["index", "op", "location", "L1 per core", "DRAM", "L1 weights", "DRAM weights", "live"]
    rows = [[r.index, r.op + ("  ← first that does not fit" if over and r is over[0] else ""), r.location,
             human_bytes(r.l1_per_core), human_bytes(r.dram), human_bytes(r.l1_weights), human_bytes(r.dram_weights),
             r.live] for r in report.ops]
    return head + f"<details><summary>all {len(rows)} ops</summary>" + \
        html_table(columns, rows, cls="ttbench-run") + "</details>"


def bound_repr_html(report) -> str:
    """The model's bound (said to be one), then every op, longest first."""
    head = "".join(f"<p>{html.escape(line.strip())}</p>" for line in report.summary().splitlines()[:2])
    columns = ["index", "op", "location", "bound µs", "bound by", "GFLOP", "fidelity", "DRAM bytes"]
    rows = [[op.index, op.op, op.location, f"{op.bound_s * 1e6:.3f}", op.bound_by, f"{op.flops / 1e9:.6f}",
             op.fidelity, human_bytes(op.dram_bytes)] for op in sorted(report.ops, key=lambda o: -o.bound_s)]
    return head + html_table(columns, rows, "an ideal-time bound, not a measurement", cls="ttbench-run")


def compiler_metrics_repr_html(report) -> str:
    """The compiler's totals, its figures by source line, then every op it lists with the line it was tied to."""
    summary = report.summary().splitlines()
    head = "".join(f"<p>{html.escape(line.strip())}</p>" for line in summary if not line.startswith("  ") or
                   "spilled:" in line or "could not" in line or "differently" in line)
    lines = html_table(["source line", "ops", "sharded", "spilled", "FLOPs"],
                       [[where, f["ops"], f["sharded"], f["spilled"], f"{f['flops']:,}"]
                        for where, f in report.by_line().items()], "by source line", cls="ttbench-run")
    columns = ["index", "op", "location", "module", "sharded", "spilled", "flops", "fidelity", "flops_agree"]
    rows = [["?" if op.index < 0 else op.index] + [getattr(op, c) for c in columns[1:]] for op in report.ops]
    return head + lines + f"<details><summary>all {len(rows)} ops the compiler lists</summary>" + \
        html_table(columns, rows, cls="ttbench-run") + "</details>"


def levels_repr_html(report) -> str:
    """The two levels' counts, bounds and numbers, then every source line the optimizer changed (the unchanged in a
    fold): what a line's ops became and where their results moved."""
    summary = report.summary().splitlines()
    if report.errors:
        return "".join(f"<p>{html.escape(line.strip())}</p>" for line in summary)
    head = [summary[0]] + [line for line in summary if "ideal-time bound" in line] + [report.numbers_line()]
    a, b = report.levels
    columns = ["location", "module", f"level {a} ops", f"level {b} ops", "what changed"]

    def rows(lines):
        return [[line.location or "(no location)", line.module, ", ".join(counted(line.ops[0])),
                 ", ".join(counted(line.ops[1])), line.describe()] for line in lines]

    changed = report.changed()
    same = [line for line in report.lines if not line.changed]
    return "".join(f"<p>{html.escape(line.strip())}</p>" for line in head) + \
        html_table(columns, rows(changed), f"{len(changed)} source lines changed", cls="ttbench-run") + \
        (f"<details><summary>{len(same)} lines unchanged</summary>" +
         html_table(columns, rows(same), cls="ttbench-run") + "</details>" if same else "")


def memory_plot(report, ax=None):
    """L1 per core and DRAM across the program, each against its chip limit (dashed); the first op that does not
    fit marked."""
    from .plots import notebook_figure  # lazy: matplotlib, only when a plot is drawn

    figure = None
    if ax is None:
        figure = notebook_figure(figsize=(10, 4))
        axes = figure.subplots(2, 1, sharex=True)
    else:
        axes = (ax, ax.twinx())
    xs = list(range(len(report.ops)))
    for axis, key, limit, name in ((axes[0], "l1_per_core", report.chip["l1_per_core"], "L1 per core"),
                                   (axes[1], "dram", report.chip["dram"], "DRAM")):
        axis.plot(xs, [getattr(r, key) / 2**20 for r in report.ops], color="tab:blue", linewidth=1)
        axis.axhline(limit / 2**20, color="tab:red", linestyle="--", linewidth=1, label=f"{report.chip['arch']} limit")
        axis.set_ylabel(f"{name} (MiB)")
        axis.legend(loc="upper right", fontsize=8)
    over = report.first_overflow
    if over is not None:
        x = report.ops.index(over[0])
        for axis in axes:
            axis.axvline(x, color="tab:red", linewidth=1)
    axes[-1].set_xlabel("op (program order)")
    axes[0].set_title(f"{report.model}: tensors live on the chip (a bound; circular buffers not counted)")
    return figure if figure is not None else axes[0]


def stage_table_repr_html(table) -> str:
    rows = [r[:4] + (clipped_error(r[4]),) for r in table.rows]
    return html_table(STAGE_TABLE_COLUMNS, rows, cls="ttbench-run")


def op_row_repr_html(row) -> str:
    """One op (first_failing_op's answer) as a two-column card, long fields (the error) left whole."""
    fields = [(c, getattr(row, c)) for c in OP_COLUMNS if getattr(row, c) not in (None, [], "")]
    where = f" at {row.locations[0]}" if row.locations else ""
    return html_table(["field", "value"], fields, f"{row.op}{where}: {'ok' if row.ok else 'fails'}",
                      cls="ttbench-run")


def op_by_op_repr_html(report) -> str:
    """The op-by-op table; a column with one value in every row (what produced the PCCs) is said once, above."""
    columns = [c for c in OP_COLUMNS if c != "pcc_from"]
    sources = sorted({r.pcc_from for r in report.rows if r.pcc_from})
    caption = report.summary().replace("\n", " · ")
    if len(sources) > 1:
        columns = OP_COLUMNS
    elif sources and sources[0] not in caption:
        caption += f" · PCC from {sources[0]}"
    rows = [[clipped_error(r.error) if c == "error" else getattr(r, c) for c in columns] for r in report.rows]
    return html_table(columns, rows, caption, cls="ttbench-run")


def op_by_op_plot(report, ax=None):
    """PCC per unique op in graph order; failures in red, the threshold as a line. Draws into `ax` and returns
    it; without one, returns a Figure of its own (a notebook shows it; pyplot's state and backend are untouched)."""
    figure = None
    if ax is None:
        from .plots import notebook_figure  # lazy: matplotlib, only when a plot is drawn

        figure = notebook_figure(figsize=(10, 3))
        ax = figure.subplots()
    xs = [r.index for r in report.rows]
    colors = ["tab:green" if r.ok else "tab:red" for r in report.rows]
    interpreted = report.compile_only and any(r.pcc_from for r in report.rows)
    if report.compile_only and not interpreted:  # no PCC to draw: how far each op got through the compiler

        ax.scatter(xs, [FURTHEST_STAGES.index(r.furthest_stage) for r in report.rows], c=colors, s=12)
        ax.set_yticks(range(len(FURTHEST_STAGES)), FURTHEST_STAGES)
        ax.set_xlabel("unique op (graph order)")
        ax.set_ylabel("furthest stage")
        ax.set_title(f"{report.model}: op by op through the {report.device} compiler (compile-only)")
        return figure if figure is not None else ax
    if interpreted:  # compiled to a flatbuffer (ok) is not the same as matching: colour by the numbers
        colors = ["tab:gray" if r.pcc is None else "tab:red" if r.note or r.pcc < report.min_pcc else "tab:green"
                  for r in report.rows]
    draw_pcc_errors(ax, [r.pcc for r in report.rows], [op_kind(r.op) for r in report.rows], colors,
                    report.min_pcc)
    ax.set_xlabel("unique op (graph order)")
    ax.set_ylabel("1 - PCC vs the golden (log)")
    ax.set_title(f"{report.model}: op by op through the {report.device} compiler, each unit's TTNN interpreted on "
                 f"the CPU (compile-only: not the chip)" if interpreted else
                 f"{report.model}: {report.mode} op-by-op on {report.device}")
    return figure if figure is not None else ax


# --- stage comparison ---------------------------------------------------------------------------------------

def _pcc_colour(row, min_pcc: float) -> str:
    if row.reference is None:
        return "#eeeeee"
    if not row.ok:
        return "#ffcdd2"
    return "#c8e6c9" if row.pcc >= min_pcc else "#fff3c4"  # allclose but low PCC: a near-constant tensor


def stage_comparison_repr_html(r) -> str:
    """The summary, then every compared op coloured by PCC (green matches, red diverges, yellow allclose with a
    meaningless PCC), the first divergence marked; unmatched ops with their reason, folded."""
    e = html.escape
    head = "".join(f"<div>{e(line)}</div>" for line in r.summary().split("\n"))
    if r.not_run:
        return f"<div class='ttbench-compare'>{head}</div>"
    first = r.first_divergence
    cells = ["#", "op", "line", "module", f"{r.reference_stage} op", "layout", "pcc", "max abs error", "finding"]
    rows = []
    # The program's own ops first, in execution order; then, labelled, what it computes once from the weights
    # (TTNN's const-eval functions, printed before main).
    once = [m for m in r.rows if "const_eval" in (m.op.attrs.get("func") or "")]
    for m in [m for m in r.rows if m not in once] + once:
        if once and m is once[0]:
            rows.append(f"<tr><td colspan='{len(cells)}'><b>computed once from the weights (const-eval functions: "
                        f"{len(once)} compared values)</b></td></tr>")
        mark = " ◀ first divergence" if m is first else ""
        values = [m.op.index, m.op.name + (f" ({m.part})" if m.part else "") + mark,
                  m.op.location.short if m.op.location else "-", m.op.module or "",
                  f"{m.reference.name} #{m.reference.index}", m.layout, m.pcc, m.max_abs_error,
                  clipped_error(m.finding or "")]
        rows.append(f"<tr style='background:{_pcc_colour(m, r.min_pcc)}'>"
                    + "".join(f"<td>{e(cell_text(v))}</td>" for v in values) + "</tr>")
    unmatched = "".join(f"<tr><td>{m.op.index}</td><td>{e(m.label.split(' ', 1)[0])}"
                        f"{e(' (' + m.part + ')' if m.part else '')}</td><td>"
                        f"{e(m.op.location.short if m.op.location else '-')}</td><td>{e(m.reason)}"
                        f"{e('; ' + m.finding if m.finding else '')}</td></tr>"
                        for m in r.unmatched)
    legend = ("<div style='font-size:12px'>colour: <span style='background:#c8e6c9'>PCC ≥ threshold</span> "
              "<span style='background:#ffcdd2'>diverges</span> <span style='background:#fff3c4'>allclose, "
              "PCC meaningless (near-constant)</span></div>")
    table = ("<div style='max-height:420px;overflow:auto'><table class='ttbench-run'><thead><tr>"
             + "".join(f"<th>{e(c)}</th>" for c in cells) + f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
             f"</div>")
    folded = (f"<details><summary>{len(r.unmatched)} unmatched ops of {e(r.stage)}</summary><table "
              f"class='ttbench-run'><tbody>{unmatched}</tbody></table></details>") if r.unmatched else ""
    return f"<div class='ttbench-compare'>{head}{legend}{table}{folded}</div>"


def stage_comparison_plot(r, ax=None):
    """PCC per compared op of the later stage, in execution order; divergent ops red, the threshold as a line and
    the first divergence labelled with its source line."""
    figure = None
    if ax is None:
        from .plots import notebook_figure  # lazy: matplotlib, only when a plot is drawn

        figure = notebook_figure(figsize=(10, 3))
        ax = figure.subplots()
    draw_pcc_errors(ax, [m.pcc for m in r.rows], [op_kind(m.op.name) for m in r.rows],
                    ["tab:green" if m.ok else "tab:red" for m in r.rows], r.min_pcc)
    first = r.first_divergence
    if first is not None and first.pcc is not None:
        x = r.rows.index(first)
        where = first.op.location.short if first.op.location else "?"
        ax.annotate(f"first divergence: {first.op.name} at {where}", (x, max(1.0 - first.pcc, PCC_ERROR_FLOOR)),
                    fontsize=8, xytext=(5, -15), textcoords="offset points", color="tab:red")
    ax.set_xlabel(f"compared op of {r.stage} (execution order)")
    ax.set_ylabel(f"1 - PCC vs {r.reference_stage} (log)")
    ax.set_title(f"{r.model}: {r.reference_stage} -> {r.stage}, op by op")
    return figure if figure is not None else ax


# --- drift ----------------------------------------------------------------------------------------------------

def drift_repr_html(r) -> str:
    """The sentence, what produced it, and the ranked parts: share of the final error, source line, module, the
    final PCC with only that part healed (what if it ran exactly)."""
    e = html.escape
    head = (f"<div><b>{e(r.model)}</b>: {e(r.stage)} in {e(r.precision)} on {e(r.device)}, final PCC "
            f"{e(cell_text(r.final_pcc))} against the exact run ({r.runs} chained runs over {r.units} ops, "
            f"{r.seconds:.1f} s)</div><div><b>{e(r.verdict)}</b></div>"
            f"<div style='font-size:12px'>produced by {e(r.produced_by)}</div>")
    rows = [[f"{c.share * 100:.1f} %", c.what, c.location or "-", c.module, c.kind,
             "" if c.recovered_pcc is None else c.recovered_pcc] for c in r.contributors]
    table = html_table(["share of error", "part", "line", "module", "kind", "PCC with it healed alone"], rows,
                       titles={"share of error": "how much of the final squared error healing this part (computing "
                                                 "it exactly) takes away",
                               "PCC with it healed alone": "what if only this part ran exactly (f32): the final "
                                                           "PCC against the exact run"})
    picture = ""
    if r.profile:
        figure = drift_plot(r)
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=80)
        picture = (f"<img alt='error growth along the program' style='max-width:100%' "
                   f"src='data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode()}'>")
    hypotheses = "".join(f"<li>{e(h)}</li>" for h in r.hypotheses())
    tries = f"<div>fixes to try (measured, each a hypothesis):<ul>{hypotheses}</ul></div>" if hypotheses else ""
    return f"<div class='ttbench-drift'>{head}{tries}{picture}{table}</div>"


def drift_plot(r, ax=None):
    """Each op's relative error against the exact run along the program (log), the top contributors marked."""
    figure = None
    if ax is None:
        from .plots import notebook_figure  # lazy: matplotlib, only when a plot is drawn

        figure = notebook_figure(figsize=(10, 3))
        ax = figure.subplots()
    position = {index: x for x, index in enumerate(r.unit_ops)}
    xs = [position[i] for i, _ in r.profile]
    ys = [max(err, PCC_ERROR_FLOOR) for _, err in r.profile]
    ax.plot(xs, ys, color="tab:blue", linewidth=1, label="relative error of each op's value")
    ax.set_yscale("log")
    for rank, c in enumerate([c for c in r.contributors if c.kind == "op"][:3]):
        x = position.get(c.ops[0])
        if x is None:
            continue
        ax.axvline(x, color="tab:red", linestyle="--", linewidth=1)
        ax.annotate(f"{c.share * 100:.0f} %: {c.what} {c.location}", (x, max(ys) if ys else 1.0), fontsize=7,
                    color="tab:red", xytext=(4, -12 * (rank + 1)), textcoords="offset points")
    ax.set_xlabel(f"op of {r.stage} (program order)")
    ax.set_ylabel(f"relative error vs exact (log)")
    ax.set_title(f"{r.model}: error growth in {r.precision}, final PCC {r.final_pcc:.6f}")
    ax.legend(loc="lower right", fontsize=7)
    return figure if figure is not None else ax


# --- diff -----------------------------------------------------------------------------------------------------

def diff_repr_html(d) -> str:
    summary = "".join(f"<li>{html.escape(l)}</li>" for l in summary_lines(d))
    blocks = []
    for s in d.stages:
        if not s.unified:
            continue
        rows = []
        for l in s.unified[:2000]:
            cls = "add" if l.startswith("+") else "del" if l.startswith("-") else "ctx"
            rows.append(f"<span class='{cls}'>{html.escape(l)}</span>")
        blocks.append(f"<details><summary>{html.escape(s.stage)}: unified diff ({len(s.unified)} lines)"
                      f"</summary><pre>{chr(10).join(rows)}</pre></details>")
    style = ("<style>.ttbench-diff .add{background:#e6ffec}.ttbench-diff .del{background:#ffebe9}"
             ".ttbench-diff pre{font-size:12px;overflow-x:auto}</style>")
    return f"<div class='ttbench-diff'>{style}<ul>{summary}</ul>{''.join(blocks)}</div>"


def diff_save_html(d, path: str) -> str:
    return write_text_atomic(path, "<!doctype html><meta charset='utf-8'><title>ttbench diff</title>"
                             + diff_repr_html(d))


# The one place that says how each record is shown: "Class.method" -> view. Each record's class body declares the
# method (core.view_method); this table, filled when ttbench is imported, says what it draws.
VIEWS.update({
    "Bringup._repr_html_": bringup_repr_html,
    "Bringup.save_html": bringup_save_html,
    "Stage.graph": stage_graph,
    "Stage.netron": stage_netron,
    "Stage.explorer": stage_explorer,
    "Bringup.explorer_files": explorer_files,
    "FindingsSummary._repr_html_": summary_repr_html,
    "RunResult._repr_html_": run_result_repr_html,
    "OpByOpReport._repr_html_": op_by_op_repr_html,
    "OpRow._repr_html_": op_row_repr_html,
    "StageTable._repr_html_": stage_table_repr_html,
    "PlacementReport._repr_html_": placement_repr_html,
    "MemoryReport._repr_html_": memory_repr_html,
    "MemoryReport.plot": memory_plot,
    "BoundReport._repr_html_": bound_repr_html,
    "LevelComparison._repr_html_": levels_repr_html,
    "CompilerMetrics._repr_html_": compiler_metrics_repr_html,
    "OpByOpReport.plot": op_by_op_plot,
    "StageComparison._repr_html_": stage_comparison_repr_html,
    "StageComparison.plot": stage_comparison_plot,
    "DriftReport._repr_html_": drift_repr_html,
    "DriftReport.plot": drift_plot,
    "IRDiff._repr_html_": diff_repr_html,
    "IRDiff.save_html": diff_save_html,
})
