"""`tb.explore(b)`: an ipywidgets explorer (opt-in; the default HTML view needs no JavaScript).

Pick the stages to compare, filter ops by name or finding kind, search a source line; selecting an op shows its
full line, location chain, attributes and findings. Its output is separate from the default view, so static
exports keep the plain HTML."""
from __future__ import annotations

import html

from ..analysis.findings import KINDS


class Explorer:
    def __init__(self, b):
        import ipywidgets as w

        self.b = b
        self.findings = b.findings
        names = [n for n, s in b.stages.items() if s.ok]
        self.stages = w.SelectMultiple(options=names, value=tuple(names[:2]), description="stages", rows=len(names))
        self.op_filter = w.Text(description="op", placeholder="e.g. convolution")
        self.kind = w.Dropdown(options=["any"] + list(KINDS), value="any", description="finding")
        self.line = w.Text(description="source", placeholder="e.g. modeling_bert.py:177")
        self.lists = w.HBox()
        self.details = w.HTML()
        self.widget = w.VBox([w.HBox([self.stages, w.VBox([self.op_filter, self.kind, self.line])]), self.lists,
                              self.details])
        for control in (self.stages, self.op_filter, self.kind, self.line):
            control.observe(lambda _: self.refresh(), names="value")
        self.refresh()

    def _kinds(self, stage: str, index: int) -> set:
        return {f.kind for f in self.findings if f.stage == stage and f.details.get("index") == index}

    def matching_ops(self, stage: str) -> list:
        out = []
        for op in self.b.stages[stage].ops:
            if self.op_filter.value and self.op_filter.value not in op.name:
                continue
            if self.kind.value != "any" and self.kind.value not in self._kinds(stage, op.index):
                continue
            if self.line.value and not (op.location and self.line.value in str(op.location)):
                continue
            out.append(op)
        return out

    def refresh(self) -> None:
        import ipywidgets as w

        boxes = []
        for stage in self.stages.value:
            ops = self.matching_ops(stage)
            options = [(f"{op.index} {op.name} @ {op.location.short if op.location else '?'}", (stage, op.index))
                       for op in ops[:2000]]
            select = w.Select(options=options, value=None, rows=12, description=stage,
                              layout=w.Layout(width="420px"))
            select.observe(lambda change: self.show(*change["new"]) if change["new"] else None, names="value")
            boxes.append(select)
        self.lists.children = boxes

    def show(self, stage: str, index: int) -> None:
        op = self.b.stages[stage].ops[index]
        found = [f for f in self.findings if f.stage == stage and f.details.get("index") == index]
        chain = "".join(f"<li>{html.escape(str(loc))}</li>" for loc in op.chain) or "<li>no location</li>"
        attrs = "".join(f"<li>{html.escape(str(k))}: {html.escape(str(v))}</li>" for k, v in op.attrs.items())
        fnd = "".join(f"<li>{html.escape(str(f))}</li>" for f in found) or "<li>none</li>"
        self.details.value = (f"<b>{html.escape(stage)} #{index} {html.escape(op.name)}</b>"
                              f"<pre style='white-space:pre-wrap'>{html.escape(op.text)}</pre>"
                              f"<div>location chain (innermost first)</div><ul>{chain}</ul>"
                              f"<div>attributes</div><ul>{attrs}</ul><div>findings</div><ul>{fnd}</ul>")

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def explore(b) -> Explorer:
    return Explorer(b)
