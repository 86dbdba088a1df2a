"""Graph views of a stage: the FX graph (clusters by module path) or an MLIR stage's op graph (def-use edges),
nodes coloured by finding kind. Rendered to SVG by graphviz's `dot` when it is installed; otherwise the DOT text,
with how to install it. Large graphs are cut to `max_nodes` (and can be filtered), and say so."""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Optional

from .. import optional
from ..proc.children import run_once
from ..analysis.op_kinds import is_bookkeeping
from .bringup_html import KIND_COLOURS, findings_by_op
from ..core import StageName

MAX_NODES = 300
ZOOM_AFTER = 100  # a graph of more ops squeezed to the cell's width has unreadable text: it scrolls and zooms instead

# Zoom by the picture's width (the box scrolls); "fit" gives it the cell's width again.
_ZOOM = ("var s=this.parentNode.nextElementSibling.querySelector('svg');"
         "s.style.width=Math.round(s.getBoundingClientRect().width*{factor})+'px'")
_ZOOM_BUTTONS = (f'<button type="button" onclick="{_ZOOM.format(factor=1.25)}">+</button>'
                 f'<button type="button" onclick="{_ZOOM.format(factor=0.8)}">&minus;</button>'
                 '<button type="button" onclick="var s=this.parentNode.nextElementSibling.querySelector(\'svg\');'
                 's.style.width=\'100%\'">fit</button>')


@dataclass
class Graph:
    dot: str  # DOT source
    shown: int
    total: int  # ops that pass the filters (bookkeeping left out unless asked for)
    bookkeeping_hidden: int = 0

    @property
    def caption(self) -> str:
        text = f"showing {self.shown} of {self.total} ops" if self.shown < self.total else f"{self.total} ops"
        hidden = f" ({self.bookkeeping_hidden} bookkeeping ops not drawn: bookkeeping=True draws them)"
        return text + (hidden if self.bookkeeping_hidden else "")

    def svg(self) -> Optional[str]:
        piece = optional.dot()
        if not piece.available:
            return None
        done = run_once([piece.detail, "-Tsvg"], 120, stdin_text=self.dot)
        return done.stdout if done.ok else None

    def _repr_html_(self) -> str:
        svg = self.svg()
        caption = f"<div><i>{html.escape(self.caption)}</i></div>"
        if svg is not None and self.shown > ZOOM_AFTER:  # at its own size in a box that scrolls, with a zoom
            picture = svg[svg.find("<svg"):].replace("<svg", "<svg style='max-width:none;height:auto'", 1)
            return (f"<div><i>{html.escape(self.caption)}: drawn at full size (scroll, or zoom here; "
                    f"stage.explorer() opens it in Model Explorer)</i> {_ZOOM_BUTTONS}</div>"
                    f"<div style='overflow:auto;max-height:80vh;border:1px solid #d0d7de'>{picture}</div>")
        if svg is not None:
            return caption + svg[svg.find("<svg"):]
        return (caption + f"<div>graphviz's <code>dot</code> is not installed ({html.escape(optional.dot().hint)}); "
                f"DOT text:</div><pre>{html.escape(self.dot)}</pre>")

    def __repr__(self) -> str:
        return f"<Graph: {self.caption}{'' if optional.dot().available else '; dot not installed: ' + optional.dot().hint}>"


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _kinds_by_index(findings, stage: str) -> dict:
    return {index: {f.kind for f in found} for (name, index), found in findings_by_op(findings or ()).items()
            if name == stage}


def edges_around(edges: list, hidden: set) -> list:
    """`edges` with the `hidden` ops taken out and their users wired to what they carried (a value moved by a
    to_layout is drawn from the op that computed it)."""
    if not hidden:
        return edges
    incoming: dict = {}
    for a, b in edges:
        incoming.setdefault(b, []).append(a)
    carried: dict = {}  # hidden op -> the shown ops its value came from (ops use earlier ops: one pass in order)
    out = []
    for b in sorted(incoming):
        sources = dict.fromkeys(s for a in incoming[b] for s in (carried.get(a, ()) if a in hidden else (a,)))
        if b in hidden:
            carried[b] = tuple(sources)
        else:
            out.extend((a, b) for a in sources)
    return out


def def_use_edges(stage) -> list:
    """(producer op index, user op index) for every value an op uses, in op order: FX through the graph's nodes,
    ONNX through tensor names, MLIR through SSA names (per function: names restart in each)."""
    edges = []
    if stage.name == StageName.ONNX and stage.module is not None:  # one op per graph node, in order
        producer = {}
        for index, node in enumerate(stage.module.graph.node):
            edges.extend((producer[name], index) for name in node.input if name in producer)
            producer.update((name, index) for name in node.output if name)
        return edges
    if stage.name == StageName.FX and stage.module is not None:
        fx_nodes = {n.name: n for n in stage.module.graph.nodes}
        index_of = {op.attrs.get("node"): op.index for op in stage.ops}
        for op in stage.ops:
            node = fx_nodes.get(op.attrs.get("node"))
            for arg in (node.all_input_nodes if node is not None else ()):
                if arg.name in index_of:
                    edges.append((index_of[arg.name], op.index))
        return edges
    producer = {}
    for op in stage.ops:
        func = op.attrs.get("func") or ""
        for u in op.attrs.get("operands", ()):
            if (func, u) in producer:
                edges.append((producer[(func, u)], op.index))
        for r in op.attrs.get("results", ()):
            producer[(func, r)] = op.index
    return edges


def stage_graph(stage, findings=None, max_nodes: int = MAX_NODES, op_filter: Optional[str] = None,
                kind: Optional[str] = None, bookkeeping: bool = False) -> Graph:
    """`op_filter`: keep ops whose name contains it; `kind`: keep ops with a finding of that kind; `bookkeeping`:
    draw transfers, layouts and frees too (left out by default, their users wired to what they carried)."""
    kinds = _kinds_by_index(findings, stage.name)
    hidden = set() if bookkeeping else {op.index for op in stage.ops if is_bookkeeping(op.name)}
    ops = [op for op in stage.ops if (op_filter is None or op_filter in op.name) and op.index not in hidden
           and (kind is None or kind in kinds.get(op.index, ()))]
    total = len(ops)
    ops = ops[:max_nodes]
    keep = {op.index for op in ops}
    clusters: dict = {}
    for op in ops:
        cluster = op.module if op.module else (op.attrs.get("func") or "")  # modules, else the function
        clusters.setdefault(cluster, []).append(op)
    edges = [(a, b) for a, b in edges_around(def_use_edges(stage), hidden) if a in keep and b in keep]
    lines = ["digraph stage {", "  rankdir=TB; node [shape=box, style=filled, fillcolor=white, fontsize=10];",
             f"  label={_quote(f'{stage.name}: {Graph(str(), len(ops), total, len(hidden)).caption}')};"]
    for k, (cluster, members) in enumerate(clusters.items()):
        if cluster:
            lines.append(f"  subgraph cluster_{k} {{ label={_quote(cluster)}; style=dashed;")
        for op in members:
            fill = next((KIND_COLOURS[kd] for kd in ("verifier", "semantic", "inplace", "constant", "location_lost")
                         if kd in kinds.get(op.index, ())), "white")
            font = "white" if fill != "white" else "black"
            label = op.name + (f"\n{op.location.short}" if op.location else "")
            lines.append(f"    n{op.index} [label={_quote(label)}, fillcolor={_quote(fill)}, fontcolor={font}];")
        if cluster:
            lines.append("  }")
    lines += [f"  n{a} -> n{b};" for a, b in dict.fromkeys(edges)]
    lines.append("}")
    return Graph(dot="\n".join(lines) + "\n", shown=len(ops), total=total, bookkeeping_hidden=len(hidden))
