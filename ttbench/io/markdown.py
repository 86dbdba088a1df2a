"""Text from runs (model names, errors, ops) put into the markdown pages ttbench writes (status.md, op_support.md,
onnx_conformance.md): one line each, and nothing a markdown renderer would take for markup."""
from __future__ import annotations

import re
from urllib.parse import quote

from ..records.document import Document, Link

_MARKUP = re.compile(r"([\\`*\[\]<>|])")


def md_cell(text) -> str:
    """`text` as one cell of a markdown table: one line; a pipe, backquote, emphasis, brackets (a link, a
    `javascript:` one included) and raw HTML escaped, entities made literal."""
    return _MARKUP.sub(r"\\\1", " ".join(str(text if text is not None else "").split()).replace("&", "&amp;"))


def md_code_block(text: str) -> str:
    """`text` fenced as a code block whatever backquotes it holds (a fence longer than any run inside it)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text}\n{fence}"


def _md_cell(cell) -> str:
    if isinstance(cell, Link):  # the target quoted: a parenthesis or a space in it ends no link early
        return f"[{md_cell(cell.text)}]({quote(cell.href, safe='/._-~#')})"
    return md_cell(cell)


def document_markdown(doc: Document) -> str:
    """`doc` as markdown: every text escaped as md_cell does, code fenced, links only where the page made them."""
    lines = [f"# {md_cell(doc.title)}", ""]
    for section in doc.sections:
        if section.heading:
            lines += [f"## {md_cell(section.heading)}", ""]
        for paragraph in section.paragraphs:
            lines += [md_cell(paragraph), ""]
        if section.code is not None:
            lines += [md_code_block(section.code), ""]
        if section.table is not None:
            lines += ["| " + " | ".join(md_cell(h) for h in section.table.header) + " |",
                      "|---" * len(section.table.header) + "|"]
            lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in section.table.rows]
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
