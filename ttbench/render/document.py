"""A document (records/document.py) as one HTML page: every text escaped, links kept relative to the page."""
from __future__ import annotations

import html

from ..records.document import Document, Link, Table

# Tables fit the window (cells wrap anywhere, never a horizontal scroll at 1280 px); headers stay on top.
_STYLE = ("<style>body{font:13px sans-serif;margin:1em}table{border-collapse:collapse;width:100%;"
          "table-layout:auto}td,th{border:1px solid #999;padding:2px 6px;vertical-align:top;overflow-wrap:anywhere}"
          "th{position:sticky;top:0;background:#eee;z-index:1}pre{background:#f6f8fa;padding:6px;white-space:pre-wrap;"
          "overflow-wrap:anywhere}table.interactive th{cursor:pointer}th[aria-sort=ascending]::after{content:' \\25B2'}"
          "th[aria-sort=descending]::after{content:' \\25BC'}input.filter{margin:4px 0;width:30em}</style>")
# Sort by a header's column (click again: the other way; numbers as numbers) and keep the rows holding the filter's
# text. Cells are read as text: nothing of the page's data is ever evaluated.
_SCRIPT = """<script>
document.querySelectorAll('table.interactive').forEach(function (table) {
  var body = table.tBodies[0], heads = table.tHead.rows[0].cells;
  var filter = table.previousElementSibling;
  filter.addEventListener('input', function () {
    var words = filter.value.toLowerCase();
    Array.prototype.forEach.call(body.rows, function (row) {
      row.hidden = words !== '' && row.textContent.toLowerCase().indexOf(words) < 0;
    });
  });
  Array.prototype.forEach.call(heads, function (head, column) {
    head.addEventListener('click', function () {
      var up = head.getAttribute('aria-sort') !== 'ascending';
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
      head.setAttribute('aria-sort', up ? 'ascending' : 'descending');
      var key = function (row) {
        var cell = row.cells[column], rank = cell.getAttribute('data-sort'), text = cell.textContent.trim();
        if (rank !== null) return [0, Number(rank), text];
        var number = Number(text);
        return text !== '' && !isNaN(number) ? [0, number, text] : [1, 0, text.toLowerCase()];
      };
      var rows = Array.prototype.slice.call(body.rows).map(function (r) { return [key(r), r]; });
      rows.sort(function (a, b) {
        var x = a[0], y = b[0], order = x[0] - y[0] || x[1] - y[1] || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0);
        return up ? order : -order;
      });
      rows.forEach(function (pair) { body.appendChild(pair[1]); });
    });
  });
});
</script>"""


def _cell(cell) -> str:
    if isinstance(cell, Link):
        href = cell.href if "://" not in cell.href and not cell.href.lower().startswith("javascript:") else "#"
        return f"<a href='{html.escape(href, quote=True)}'>{html.escape(cell.text)}</a>"
    return html.escape("" if cell is None else str(cell))


def document_html(doc: Document) -> str:
    esc = html.escape
    out = [f"<!doctype html><meta charset='utf-8'><meta name='viewport' content='width=device-width'>"
           f"<title>{esc(doc.title)}</title>{_STYLE}<h1>{esc(doc.title)}</h1>"]
    interactive = False
    for section in doc.sections:
        if section.heading:
            out.append(f"<h2>{esc(section.heading)}</h2>")
        out += [f"<p>{esc(p)}</p>" for p in section.paragraphs]
        if section.code is not None:
            out.append(f"<pre>{esc(section.code)}</pre>")
        if section.table is not None:
            out.append(_table(section.table))
            interactive = interactive or section.table.interactive
    if interactive:
        out.append(_SCRIPT)
    return "".join(out)


def _table(table: Table) -> str:
    esc = html.escape
    head = "".join(f"<th>{esc(str(h))}</th>" for h in table.header)
    tags = table.row_tags or [None] * len(table.rows)
    ranks = {tag: i for i, tag in enumerate(table.tag_colours)}  # sorting a tag's column: in the colours' order
    rows = []
    for row, tag in zip(table.rows, tags):
        colour = table.tag_colours.get(tag) if tag is not None else None
        style = f" style='background:{esc(colour, quote=True)}'" if colour else ""
        cells = "".join(f"<td data-sort='{ranks[c]}'>{_cell(c)}</td>" if isinstance(c, str) and c in ranks
                        else f"<td>{_cell(c)}</td>" for c in row)
        rows.append(f"<tr{style}>{cells}</tr>")
    filter_box = ("<input class='filter' type='search' placeholder='filter rows: any text of a row' "
                  "aria-label='filter rows'>" if table.interactive else "")
    cls = " class='interactive'" if table.interactive else ""
    return f"{filter_box}<table{cls}><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
