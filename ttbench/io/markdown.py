"""Text from runs (model names, errors, ops) put into the markdown pages ttbench writes (status.md, op_support.md,
onnx_conformance.md): one line each, and nothing a markdown renderer would take for markup."""
from __future__ import annotations

import re

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
