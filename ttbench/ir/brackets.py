"""The one bracket scanner of printed MLIR: brackets of all kinds nest, string literals and the arrow `->` (affine
maps inside layouts) are not brackets. Attributes, locations and the TT program model all read through it."""
from __future__ import annotations


class AttributeSyntaxError(ValueError):
    """Printed attributes this reader does not follow."""


def skip_string(s: str, i: int) -> int:
    """From the quote at s[i] to just past its closing quote (escapes skipped)."""
    i += 1
    n = len(s)
    while i < n and s[i] != '"':
        i += 2 if s[i] == "\\" else 1
    return i + 1


def skip_balanced(s: str, i: int) -> int:
    """From an opening bracket at s[i] to just past its match."""
    depth = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c == '"':
            i = skip_string(s, i)
            continue
        if c == "-" and i + 1 < n and s[i + 1] == ">":
            i += 1
        elif c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise AttributeSyntaxError(f"unbalanced brackets in {s[:120]!r}")


def split_top_level(text: str, sep: str = ",") -> list:
    """Parts of `text` between separators outside any bracket or string, stripped; empty parts left out at the end."""
    parts, start, i, n = [], 0, 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i = skip_string(text, i)
        elif c == "-" and text.startswith("->", i):
            i += 2
        elif c in "<([{":
            i = skip_balanced(text, i)
        else:
            if c == sep:
                parts.append(text[start:i].strip())
                start = i + 1
            i += 1
    tail = text[start:].strip()
    if tail:
        parts.append(tail)
    return parts
