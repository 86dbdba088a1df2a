"""`tb.explore(b)`: an ipywidgets explorer (opt-in; the default view, bringup_html.py, needs no kernel).

Pick the stages to compare, filter ops by name or finding kind, search a source line; selecting an op shows its
full line, location chain, attributes and findings, and what corresponds to it in every other shown stage (the
ops of the same source line and module). The op filter speaks every stage's language: "aten.mm" keeps, in
StableHLO, the ops of each line and module where an aten.mm sits (its dot_general among them). Exported without
widget state (nbconvert), it shows the static view.
"""
from __future__ import annotations

import html

from ..records.findings import KINDS
from ..analysis.op_kinds import is_bookkeeping
from ..core import notebook_cell
from .bringup_html import render_bringup


def _key(op):
    """What ties ops of different stages together: their source line and module."""
    return (op.location, op.module) if op.location is not None else None


def _line_matches(text: str, location) -> bool:
    """Whether the source filter `text` is in the label shown (`In[3]:12`, `loader.py:14`), or in a file's full
    path; never in a notebook cell's made-up file name, which is not shown."""
    return text in location.short or (notebook_cell(location.file) is None and text in str(location))


class Explorer:
    def __init__(self, b):
        import ipywidgets as w

        self.b = b
        self.findings = b.findings
        names = [n for n, s in b.stages.items() if s.ok]
        self.stages = w.SelectMultiple(options=names, value=tuple(names[:2]), description="stages", rows=len(names))
        self.op_filter = w.Text(description="op", placeholder="e.g. convolution, mm")
        self.kind = w.Dropdown(options=["any"] + list(KINDS), value="any", description="finding")
        self.line = w.Text(description="source", placeholder="e.g. modeling_bert.py:177 or In[3]:12")
        self.bookkeeping = w.Checkbox(value=False, description="bookkeeping ops (transfers, layouts, frees)",
                                      indent=False)
        self.lists = w.HBox(layout=w.Layout(flex_flow="row wrap", width="100%"))
        self.details = w.HTML()
        self.widget = w.VBox([w.HBox([self.stages, w.VBox([self.op_filter, self.kind, self.line, self.bookkeeping])]),
                              self.lists, self.details])
        for control in (self.stages, self.op_filter, self.kind, self.line, self.bookkeeping):
            control.observe(lambda _: self.refresh(), names="value")
        self.refresh()

    def _kinds(self, stage: str, index: int) -> set:
        return {f.kind for f in self.findings if f.stage == stage and f.details.get("index") == index}

    def _named(self, text: str) -> set:
        """(line, module) keys of every op, in any stage, whose name contains `text`."""
        return {_key(op) for s in self.b.stages.values() for op in s.ops if text in op.name and _key(op) is not None}

    def matching_ops(self, stage: str) -> list:
        named = self._named(self.op_filter.value) if self.op_filter.value else None
        out = []
        for op in self.b.stages[stage].ops:
            if not self.bookkeeping.value and is_bookkeeping(op.name):
                continue
            if named is not None and self.op_filter.value not in op.name and _key(op) not in named:
                continue
            if self.kind.value != "any" and self.kind.value not in self._kinds(stage, op.index):
                continue
            if self.line.value and not (op.location and _line_matches(self.line.value.strip(), op.location)):
                continue
            out.append(op)
        return out

    def refresh(self) -> None:
        import ipywidgets as w

        boxes = []
        width = f"{max(18, 98 // max(1, len(self.stages.value)))}%"  # every shown stage fits the cell's width
        for stage in self.stages.value:
            ops = self.matching_ops(stage)
            options = [(f"{op.index} {op.name} @ {op.location.short if op.location else '?'}", (stage, op.index))
                       for op in ops[:2000]]
            select = w.Select(options=options, value=None, rows=12, description=stage,
                              layout=w.Layout(width=width), style={"description_width": "initial"})
            select.observe(lambda change: self.show(*change["new"]) if change["new"] else None, names="value")
            boxes.append(select)
        self.lists.children = boxes

    def corresponding(self, stage: str, index: int) -> dict:
        """Other shown stage -> its ops of the same source line and module as this op."""
        key = _key(self.b.stages[stage].ops[index])
        if key is None:
            return {}
        return {s: [op for op in self.b.stages[s].ops if _key(op) == key] for s in self.stages.value if s != stage}

    def show(self, stage: str, index: int) -> None:
        op = self.b.stages[stage].ops[index]
        found = [f for f in self.findings if f.stage == stage and f.details.get("index") == index]
        chain = "".join(f"<li>{html.escape(str(loc))}</li>" for loc in op.chain) or "<li>no location</li>"
        attrs = "".join(f"<li>{html.escape(str(k))}: {html.escape(str(v))}</li>" for k, v in op.attrs.items())
        fnd = "".join(f"<li>{html.escape(str(f))}</li>" for f in found) or "<li>none</li>"
        related = "".join(
            f"<li>{html.escape(s)}: {len(ops)} ops<pre style='margin:0;max-height:8em;overflow:auto'>"
            + html.escape("\n".join(f"{o.index} {o.text[:160]}" for o in ops[:50])) + "</pre></li>"
            for s, ops in self.corresponding(stage, index).items())
        module = f" in module {html.escape(op.module or '(model)')}" if op.module is not None else ""
        self.details.value = (f"<b>{html.escape(stage)} #{index} {html.escape(op.name)}</b>{module}"
                              f"<pre style='white-space:pre-wrap'>{html.escape(op.text)}</pre>"
                              f"<div>the same line and module in the other stages</div>"
                              f"<ul>{related or '<li>no source line: nothing to follow</li>'}</ul>"
                              f"<div>location chain (innermost first)</div><ul>{chain}</ul>"
                              f"<div>attributes</div><ul>{attrs}</ul><div>findings</div><ul>{fnd}</ul>")

    def _repr_mimebundle_(self, **kwargs):
        """The widget, with the static view as the fallback a saved or exported notebook shows."""
        bundle = self.widget._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data["text/html"] = render_bringup(self.b)
        return bundle


def explore(b) -> Explorer:
    return Explorer(b)
