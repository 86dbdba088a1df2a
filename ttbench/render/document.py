"""A document (records/document.py) as one HTML page: every text escaped, links kept relative to the page."""
from __future__ import annotations

import html

from ..records.document import Document, Link

_STYLE = ("<style>body{font:13px sans-serif;margin:1em}table{border-collapse:collapse}td,th{border:1px solid #999;"
          "padding:2px 6px;vertical-align:top}pre{background:#f6f8fa;padding:6px}</style>")


def _cell(cell) -> str:
    if isinstance(cell, Link):
        href = cell.href if "://" not in cell.href and not cell.href.lower().startswith("javascript:") else "#"
        return f"<a href='{html.escape(href, quote=True)}'>{html.escape(cell.text)}</a>"
    return html.escape("" if cell is None else str(cell))


def document_html(doc: Document) -> str:
    esc = html.escape
    out = [f"<!doctype html><meta charset='utf-8'><title>{esc(doc.title)}</title>{_STYLE}<h1>{esc(doc.title)}</h1>"]
    for section in doc.sections:
        if section.heading:
            out.append(f"<h2>{esc(section.heading)}</h2>")
        out += [f"<p>{esc(p)}</p>" for p in section.paragraphs]
        if section.code is not None:
            out.append(f"<pre>{esc(section.code)}</pre>")
        if section.table is not None:
            head = "".join(f"<th>{esc(str(h))}</th>" for h in section.table.header)
            body = "".join("<tr>" + "".join(f"<td>{_cell(c)}</td>" for c in row) + "</tr>"
                           for row in section.table.rows)
            out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    return "".join(out)
