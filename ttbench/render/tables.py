"""The one HTML table renderer: every cell escaped, optional caption and column titles."""
from __future__ import annotations

import html
from typing import Optional

from ..core import cell_text


def html_table(columns, rows, caption: str = "", cls: str = "ttbench-table",
               titles: Optional[dict] = None, scroll: bool = True) -> str:
    """An escaped <table>; `titles` gives a tooltip per column. Wide tables scroll inside their own box."""
    titles = titles or {}
    head = "".join(f'<th title="{html.escape(titles[c])}">{html.escape(str(c))}</th>' if c in titles else
                   f"<th>{html.escape(str(c))}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(cell_text(v))}</td>" for v in row) + "</tr>" for row in rows)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    table = f"<table class='{cls}'>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    return f"<div style='overflow-x:auto'>{table}</div>" if scroll else table
