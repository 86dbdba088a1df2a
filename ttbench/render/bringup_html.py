"""The default view of a Bringup: one self-contained HTML block with the stages side by side, findings highlighted
in place, and two ways in: the user's source lines (with their code) and the model's modules (a tree by module path,
op counts per stage). Every piece of IR, name, path and code is escaped.

It answers "what became of this line / this module / this op?": with JavaScript (inline, nothing fetched: works in
JupyterLab, classic Notebook, VS Code and the exported file), selecting a line, a module or an op highlights every
corresponding op in every stage, opens the folds that hold them and scrolls each pane to the first; panes share the
width and can be hidden. Without JavaScript (an untrusted notebook) the same page keeps its static anchors.

Ids are derived from the bringup (model, frontend, params), stage names and op indices
(`mlp-export-args-op-stablehlo-12`), plus a counter when the same bringup is shown again in one process, so two
views on one page never share an id and a fresh process renders the same page. Long runs of ops without findings are folded and each pane is capped ("show all" opens the
rest), so resnet50 stays light in a browser.
"""
from __future__ import annotations

import html
import json
import re
from collections import Counter, OrderedDict

from ..records.findings import KINDS, human_bytes
from ..analysis.op_kinds import BOOKKEEPING_OPS, is_bookkeeping, needs_location
from ..io.export import seconds_cell
from .view_script import SCRIPT

KIND_COLOURS = {"inplace": "#d1242f", "constant": "#9a6700", "location_lost": "#8250df", "verifier": "#cf222e",
                "semantic": "#0969da"}
KIND_LABELS = {"inplace": "in-place op", "constant": "inlined constant", "location_lost": "location lost",
               "semantic": "meaning changed",
               "verifier": "verifier failure"}
FOLD_AFTER = 12  # a run of more uninteresting ops than this is folded
PANE_CAP = 1500  # ops shown before "show all"
MAX_OP_CHARS = 150  # longer ops are cut (the full line is in the stage text and the export folder)
FOLDED_OP_CHARS = 100

CSS = """
.ttb{font-family:system-ui,-apple-system,Segoe UI,sans-serif;font-size:13px;color:#1f2328}
.ttb table{border-collapse:collapse;margin:4px 0}.ttb td,.ttb th{border:1px solid #d0d7de;padding:2px 6px;text-align:left!important;vertical-align:top}
.ttb .legend span{display:inline-block;margin-right:12px}.ttb .chip{display:inline-block;width:10px;height:10px;margin-right:4px}
.ttb .panes{display:flex;gap:6px;align-items:flex-start;overflow-x:auto}
.ttb .pane{flex:1 1 240px;min-width:240px;border:1px solid #d0d7de;border-radius:4px}.ttb .pane.off{display:none}
.ttb:not(.show-bk) .op.bk{display:none}.ttb .bk-toggle{margin-left:14px}
.ttb .ttb-ctl .fit{color:#57606a;font-style:italic;margin-left:6px}
.ttb .pane h3{margin:0;padding:4px 8px;background:#f6f8fa;font-size:13px}
.ttb .pane pre{position:relative}.ttb .pane pre,.ttb .src pre{margin:0;padding:4px 8px;overflow-x:auto;font:11px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace;max-height:70vh;overflow-y:auto}
.ttb .op{display:block;white-space:pre}.ttb .op:target,.ttb tr:target{background:#fff8c5;outline:1px solid #d4a72c}
.ttb .ln{color:#6e7781;text-decoration:none;margin-right:6px}
.ttb .f-inplace{border-left:4px solid #d1242f;background:#ffebe9}.ttb .f-constant{border-left:4px solid #9a6700;background:#fff8c5}
.ttb .f-location_lost{border-left:4px solid #8250df;background:#fbefff}.ttb .f-verifier{border-left:4px solid #cf222e;background:#ffcecb}
.ttb .repeat{color:#0550ae;font-style:italic;background:#ddf4ff}
.ttb .badge{color:#57606a;font-style:italic;margin-left:8px}
.ttb details.fold>summary{color:#57606a;cursor:pointer;font-style:italic}
.ttb .failed{color:#cf222e}.ttb .nav{display:flex;gap:8px;margin:8px 0;align-items:flex-start}
.ttb .src{flex:3 1 0;min-width:0;border:1px solid #d0d7de;border-radius:4px;max-height:40vh;overflow:auto}
.ttb .mods{flex:2 1 0;min-width:0;border:1px solid #d0d7de;border-radius:4px;max-height:40vh;overflow:auto}
.ttb .src code{font:11px ui-monospace,SFMono-Regular,Menlo,monospace;white-space:pre!important;color:#24292f}
.ttb .src tr,.ttb .mods tr,.ttb .op{cursor:pointer}.ttb tr.sel td{background:#ddf4ff}
.ttb .op.sel{background:#ddf4ff;box-shadow:inset 0 0 0 1px #54aeff}
.ttb .tw{display:inline-block;width:12px;color:#57606a}.ttb tr.hid{display:none}
.ttb .ttb-ctl{display:none;margin:6px 0;padding:4px 8px;background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px}
.ttb.js .ttb-ctl{display:block}.ttb .ttb-ctl label{margin-right:10px}.ttb .ttb-sel{margin-top:4px;white-space:pre-wrap}
.ttb .hl .k{color:#cf222e}.ttb .hl .n{color:#0550ae}.ttb .hl .t{color:#116329}.ttb .hl .s{color:#0a3069}.ttb .hl .c{color:#6e7781}
"""

_TOKEN_RE = re.compile(r'(?P<s>"(?:[^"\\]|\\.)*")|(?P<n>%[\w$.#-]+|@[\w$.-]+)|(?P<t>!?[a-z_]+<[^<>]*(?:<[^<>]*>[^<>]*)*>)'
                       r'|(?P<k>\b[a-z_]+\.[a-z_][\w.]*)|(?P<c>#loc\d*|loc\()')


def highlight(text: str) -> str:
    """Escape and colour one line of IR: op names, SSA values/symbols, types, strings, locations.
    A small tokenizer instead of a lexer per line: thousands of ops must render in well under a second."""
    out, pos = [], 0
    for m in _TOKEN_RE.finditer(text):
        out.append(html.escape(text[pos:m.start()]))
        out.append(f'<span class="{m.lastgroup}">{html.escape(m.group(0))}</span>')
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


def _short_text(text: str) -> str:
    return text if len(text) <= MAX_OP_CHARS else text[:MAX_OP_CHARS] + " …"


def _source_lines(b) -> "OrderedDict":
    """Source line (SourceLoc) -> {stage: [op index, ...]}, lines ordered by file then line."""
    lines: dict = {}
    for name, stage in b.stages.items():
        for op in stage.ops:
            if op.location is not None and needs_location(op.name):  # link to real ops, not their scalars
                lines.setdefault(op.location, {}).setdefault(name, []).append(op.index)
    return OrderedDict(sorted(lines.items(), key=lambda kv: (kv[0].file, kv[0].line)))


def findings_by_op(findings) -> dict:
    """(stage, op index) -> the findings on that op."""
    out: dict = {}
    for f in findings:
        index = f.details.get("index") if isinstance(f.details, dict) else None
        if index is not None:
            out.setdefault((f.stage, index), []).append(f)
    return out


def _header(b, findings) -> str:
    rows = []
    for name, s in b.stages.items():
        per_kind = Counter(f.kind for f in findings if f.stage == name)
        status = "ok" if s.ok else f"<span class='failed'>{html.escape(s.error or 'failed')}</span>"
        rows.append(f"<tr><td><a href='#stage-{html.escape(name)}'>{html.escape(name)}</a></td><td>{status}</td>"
                    f"<td>{len(s.ops)}</td><td>{html.escape(seconds_cell(s))}</td>"
                    + "".join(f"<td>{per_kind.get(k, 0) or ''}</td>" for k in KINDS) + "</tr>")
    meanings = findings.kind_meanings()
    head = "".join(f"<th title='{html.escape(meanings[k])}'>{html.escape(KIND_LABELS[k])}</th>" for k in KINDS)
    title = (f"<h2 style='margin:4px 0'>{html.escape(b.model_name)} · frontend={html.escape(b.frontend)} · "
             f"params={html.escape(b.params)} · {b.seconds:.1f}s</h2>")
    # The colours only: the counts are the table's, per stage (a total over stages would be a second number for
    # the same thing, and a weight inlined in five stages is one weight).
    legend = "".join(f"<span title='{html.escape(meanings[k])}'><span class='chip' style='background:{KIND_COLOURS[k]}'>"
                     f"</span>{html.escape(KIND_LABELS[k])}</span>" for k in KINDS)
    legend += f"<div class='meaning'>inlined constant: {html.escape(meanings['constant'])}.</div>"
    return (title + f"<table><thead><tr><th>stage</th><th>status</th><th>ops</th><th>time</th>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table><div class='legend'>{legend}</div>")


def _source_pane(b, lines, repeats, code) -> str:
    names = list(b.stages)
    head = "".join(f"<th>{html.escape(n)}</th>" for n in names)
    fused = b.findings.fused
    rows = []
    for k, (loc, per_stage) in enumerate(lines.items()):
        cells = []
        for n in names:
            idx = per_stage.get(n)
            first = repeats[n].twin(idx[0]) if idx and n in repeats else (idx[0] if idx else None)
            into = fused.get(n, {}).get(loc)
            if not idx and into is not None:  # no op of its own: it runs inside another op, which the link opens
                cells.append(f"<td class='fused' title='{html.escape(str(into))}'><a href='#op-{html.escape(n)}-"
                             f"{into.hosts[0]}'>fused</a></td>")
                continue
            cells.append(f"<td><a href='#op-{html.escape(n)}-{first}'>{len(idx)}</a></td>" if idx else "<td></td>")
        # line, ops per stage, then the code: the counts stay in view and a long line runs on to the right
        rows.append(f"<tr id='src-{k}' data-k='{k}'><td title='{html.escape(str(loc))}'>{html.escape(loc.short)}</td>"
                    f"{''.join(cells)}<td><code>{html.escape(code[k] or '')}</code></td></tr>")
    return (f"<details open class='src'><summary>source lines ({len(lines)}): ops per stage, select one to follow it"
            f"</summary><table><thead><tr><th>line</th>{head}<th>code</th></tr></thead><tbody>{''.join(rows)}"
            f"</tbody></table></details>")


def _module_pane(b, modules, per_module, ends) -> str:
    """The module tree, one row per module path (indented by depth), with its ops per stage, submodules included;
    a module with submodules has a toggle (the script folds deep trees at first)."""
    if len(modules) <= 1:
        return ""
    names = list(b.stages)
    head = "".join(f"<th>{html.escape(n)}</th>" for n in names)
    rows = []
    for m, path in enumerate(modules):
        depth = path.count(".") + 1 if path else 0
        label = path.rsplit(".", 1)[-1] if path else "(model)"
        toggle = "<span class='tw'>▾</span>" if ends[m] > m + 1 else "<span class='tw'></span>"
        cells = "".join(f"<td>{per_module[m].get(n, '') or ''}</td>" for n in names)
        rows.append(f"<tr id='mod-{m}' data-m='{m}'><td title='{html.escape(path)}' style='padding-left:{4 + 10 * depth}px'>"
                    f"{toggle}{html.escape(label)}</td>{cells}</tr>")
    return (f"<details open class='mods'><summary>modules ({len(modules)}): ops per stage, submodules included, "
            f"bookkeeping ops not counted"
            f"</summary><table><thead><tr><th>module</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
            f"</details>")


def _plain_line(op) -> str:
    """A folded op: no id, link or colour (nothing links into a fold; the page must stay small). Bookkeeping ops
    are marked `bk`: hidden unless the view's "bookkeeping ops" box is ticked."""
    text = op.text if len(op.text) <= FOLDED_OP_CHARS else op.text[:FOLDED_OP_CHARS] + " …"
    kind = "op bk" if is_bookkeeping(op.name) else "op"
    return f"<span class='{kind}'><span class='ln'>{op.index}</span>{html.escape(text)}</span>"


def _constant_badge(f) -> str:
    """A splat embeds one element and the device holds all of them: say both, the embedded size first."""
    if f.details.get("splat"):
        return f"constant: splat, {human_bytes(f.details['embedded_bytes'])} in IR, {human_bytes(f.nbytes)} on device"
    return f"constant: {human_bytes(f.nbytes)}"


def _op_line(stage_name, op, found, src_ids, hosted=()) -> str:
    """One op of a stage pane; `hosted`: the source lines whose activation the compiler fused into it."""
    kinds = sorted({f.kind for f in found})
    classes = "op" + "".join(f" f-{k}" for k in kinds) + (" bk" if not found and is_bookkeeping(op.name) else "")
    badge = ""
    texts = [f"fused: {kind} of {line}" for kind, line in hosted]
    for f in found:
        texts.append(_constant_badge(f) if f.kind == "constant" and f.nbytes else f.kind)
    if texts:
        badge = f"<span class='badge'>{html.escape('; '.join(dict.fromkeys(texts)))}</span>"
    src = src_ids.get(op.location)
    link = (f"<a class='ln' href='#src-{src}' title='{html.escape(str(op.location))}'>{op.index}</a>" if src is not None
            else f"<span class='ln'>{op.index}</span>")
    return (f"<span class='{classes}' id='op-{html.escape(stage_name)}-{op.index}'>{link}"
            f"{highlight(_short_text(op.text))}{badge}</span>")


def _repeat_head(r) -> str:
    return (f"<span class='op repeat'>▼ ops {r.start}–{r.start + r.length - 1}: a block of {r.length} ops, "
            f"×{r.count} (the same ops, source lines and types {r.count} times in a row)</span>")


def _repeat_fold(r) -> str:
    return (f"<span class='op repeat'>▲ ×{r.count - 1} more of the block above: ops {r.start + r.length}–"
            f"{r.end - 1} are folded here (every op is in the stage text and the export folder)</span>")


def _stage_pane(name, stage, by_op, src_ids, repeat=None, fused=None) -> str:
    if not stage.ok:
        return (f"<section class='pane' id='stage-{html.escape(name)}'><h3>{html.escape(name)}</h3>"
                f"<pre class='failed'>{html.escape(stage.error or 'failed')}</pre></section>")
    hosted: dict = {}  # op index -> [(kind, line)] of the activations fused into it
    for loc, into in (fused or {}).items():
        for i in into.hosts:
            hosted.setdefault(i, []).append((into.kind, loc.short))
    seen_lines, interesting = set(), []
    for op in stage.ops:
        first_at_line = op.location is not None and needs_location(op.name) and op.location not in seen_lines
        if first_at_line:
            seen_lines.add(op.location)
        interesting.append(first_at_line or (name, op.index) in by_op or op.index in hosted)
    parts, run = [], []

    def flush():
        if len(run) > FOLD_AFTER:
            parts.append(f"<details class='fold'><summary>… {len(run)} ops without findings …</summary>"
                         f"{''.join(run)}</details>")
        else:
            parts.extend(run)
        run.clear()

    visible = [(op, keep) for op, keep in zip(stage.ops, interesting) if repeat is None or not repeat.folded(op.index)]
    folded_marker = repeat is not None
    for op, keep in visible[:PANE_CAP]:
        if repeat is not None and op.index == repeat.start:
            flush()
            parts.append(_repeat_head(repeat))
        if folded_marker and op.index >= repeat.end:
            flush()
            parts.append(_repeat_fold(repeat))
            folded_marker = False
        if keep:
            flush()
            parts.append(_op_line(name, op, by_op.get((name, op.index), []), src_ids, hosted.get(op.index, ())))
        else:
            run.append(_plain_line(op))
    flush()
    if folded_marker and len(visible) <= PANE_CAP:  # the block runs to the stage's last op
        parts.append(_repeat_fold(repeat))
    rest = visible[PANE_CAP:]
    if rest:
        more = "".join(_op_line(name, op, by_op.get((name, op.index), []), src_ids, hosted.get(op.index, ()))
                       if keep else _plain_line(op) for op, keep in rest)
        parts.append(f"<details class='fold'><summary>show all ({len(rest)} more ops)</summary>{more}</details>")
    layers = f" · {repeat.length} × {repeat.count} repeated" if repeat is not None else ""
    return (f"<section class='pane' id='stage-{html.escape(name)}'><h3>{html.escape(name)} · {len(stage.ops)} ops"
            f"{layers}</h3><pre class='hl'>{''.join(parts)}</pre></section>")


def render_bringup(b, plots: bool = False) -> str:
    """The whole view as one HTML string (a <div>; `standalone` wraps it into a page)."""
    findings = b.findings
    lines = _source_lines(b)
    src_ids = {loc: k for k, loc in enumerate(lines)}
    by_op = findings_by_op(findings)
    repeats = findings.repeats
    modules, module_of_op, per_module = _module_tree(b)
    ends = _subtree_ends(modules)
    code = _source_code(b, lines)
    panes = "".join(_stage_pane(n, s, by_op, src_ids, repeats.get(n), findings.fused.get(n))
                    for n, s in b.stages.items())
    extra = ""
    if plots:
        from .plots import stage_bars_png  # lazy: matplotlib, only when a plot is drawn

        extra = (f"<details class='plots'><summary>plots: constant bytes and location coverage per stage</summary>"
                 f"<img alt='constant bytes and location coverage per stage' "
                 f"src='data:image/png;base64,{stage_bars_png(b)}'></details>")
    prefix = _view_prefix(b)
    data = {"prefix": prefix, "stages": list(b.stages),
            "lines": [[loc.short, str(loc), code[k]] for k, loc in enumerate(lines)],
            "modules": modules, "moduleEnd": ends,
            "opLine": {n: [src_ids.get(op.location, -1) if op.location is not None and needs_location(op.name) else -1
                           for op in s.ops] for n, s in b.stages.items()},
            "opModule": module_of_op,
            "fused": _fused_by_line(findings.fused, src_ids),
            "repeat": {n: [r.start, r.length, r.count] for n, r in repeats.items()}}
    bookkeeping = sum(is_bookkeeping(op.name) for s in b.stages.values() for op in s.ops)
    controls = ("<div class='ttb-ctl'>stages shown: " + "".join(
        f"<label><input type='checkbox' checked data-stage='{html.escape(n)}'> {html.escape(n)}</label>"
        for n in b.stages) + (f"<label class='bk-toggle' title='{html.escape(BOOKKEEPING_OPS)}'><input "
                              f"type='checkbox' data-bookkeeping> bookkeeping ops ({bookkeeping})</label>"
                              if bookkeeping else "")
        + "<button type='button' class='ttb-clear'>clear selection</button>"
        "<div class='ttb-sel'>select a source line, a module or an op: its ops light up in every stage</div></div>")
    page = (f"<div class='ttb' id='ttb-root'><style>{CSS}</style>{_header(b, findings)}"
            f"<div class='nav'>{_source_pane(b, lines, repeats, code)}{_module_pane(b, modules, per_module, ends)}</div>"
            f"{controls}<div class='panes'>{panes}</div>{extra}"
            f"<script type='application/json' id='ttb-data'>{_json_for_script(data)}</script>"
            f"<script>{SCRIPT.replace('__TTB_PREFIX__', prefix)}</script></div>")
    return _ANCHOR_RE.sub(lambda m: f"{m.group(1)}{prefix}{m.group(2)}", page)


def _fused_by_line(fused: dict, src_ids: dict) -> dict:
    """{source row: {stage: [op indices]}}: the ops a line's activation was fused into, lit when it is selected."""
    out: dict = {}
    for stage, at in fused.items():
        for loc, into in at.items():
            if loc in src_ids:
                out.setdefault(src_ids[loc], {})[stage] = list(into.hosts)
    return out


def _json_for_script(data) -> str:
    """JSON that cannot end its <script> element early (`</script>` in a name or a line of code), nor look like
    one of the view's ids or links to the prefixing below (no quote survives)."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e") \
        .replace("&", "\\u0026").replace("'", "\\u0027")


def _module_tree(b):
    """(module paths, ancestors included, in tree order; stage -> module index per op or -1; per module index ->
    {stage: ops in its subtree})."""
    leaves = {op.module for s in b.stages.values() for op in s.ops if op.module is not None}
    paths = set()
    for path in leaves:
        parts = path.split(".") if path else []
        paths.update(".".join(parts[:i]) for i in range(len(parts) + 1))
    modules = sorted(paths, key=_tree_order)
    index = {p: i for i, p in enumerate(modules)}
    module_of_op = {n: [index.get(op.module, -1) if op.module is not None else -1 for op in s.ops]
                    for n, s in b.stages.items()}
    per_module = [Counter() for _ in modules]
    for n, s in b.stages.items():
        for op in s.ops:
            if op.module is None or is_bookkeeping(op.name):  # counted: what computes, not what moves or frees
                continue
            parts = op.module.split(".") if op.module else []
            for i in range(len(parts) + 1):
                per_module[index[".".join(parts[:i])]][n] += 1
    return modules, module_of_op, per_module


def _tree_order(path: str) -> list:
    """Parents before children, siblings in natural order (layers.2 before layers.10)."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in path.split(".")] if path else []


def _subtree_ends(modules) -> list:
    """For each module (in tree order), the index after its last descendant: a subtree is one contiguous range."""
    ends, stack = [len(modules)] * len(modules), []
    for i, path in enumerate(modules):
        while stack and not (modules[stack[-1]] == "" or path.startswith(modules[stack[-1]] + ".")):
            ends[stack.pop()] = i
        stack.append(i)
    return ends


def _source_code(b, lines) -> list:
    """The code of each source line, read where Python ran it (a file, or a cell of this notebook session). Only for
    a model given as a live nn.Module: an ONNX
    file's stack traces are untrusted text and may name any file on this machine, so its lines show no code."""
    import torch

    if not isinstance(b.model, torch.nn.Module):
        return [None] * len(lines)
    out = []
    for loc in lines:
        text = loc.code() or ""
        out.append((text[:MAX_OP_CHARS] + " …" if len(text) > MAX_OP_CHARS else text) or None)
    return out


# Every id and in-page link of a view carries the view's prefix, so two views on one page (a notebook showing
# three bringups) never answer each other's links. Escaped IR cannot contain these patterns (quotes are escaped).
_ANCHOR_RE = re.compile(r"(id='|href='#)((?:stage|op|src|mod)-|ttb-root'|ttb-data')")
_VIEWS_RENDERED: Counter = Counter()


def _view_prefix(b) -> str:
    """Deterministic per process: model, frontend and params, and a counter when the same bringup is shown again."""
    key = f"{re.sub(r'[^A-Za-z0-9_]', '_', b.model_name)[:40]}-{b.frontend}-{b.params}"
    shown = _VIEWS_RENDERED[key]
    _VIEWS_RENDERED[key] += 1
    return f"{key}-{shown}-" if shown else f"{key}-"


def standalone(body: str, title: str) -> str:
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title></head>"
            f"<body>{body}</body></html>")
