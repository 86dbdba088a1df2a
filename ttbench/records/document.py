"""A page as data: headed sections of paragraphs, a code block and a table whose cells may link. Built once by
whoever has the facts (the tracker's status page), written as markdown (io/markdown.py) and as HTML
(render/document.py) from the same record, so both formats show the same columns and the same links."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union


@dataclass(frozen=True)
class Link:
    text: str
    href: str  # relative to the page's folder


Cell = Union[str, Link]


@dataclass
class Table:
    header: tuple
    rows: list  # lists of cells, one per column
    # A table people work in (the tracker's architectures): sortable by any column and filterable in HTML, each
    # row coloured by its tag (a status) where `tag_colours` names a colour for it. Markdown shows the cells alone.
    interactive: bool = False
    row_tags: Optional[list] = None  # one short text per row
    tag_colours: dict = field(default_factory=dict)  # tag -> CSS colour


@dataclass
class Section:
    heading: str = ""  # "" for the part under the title
    paragraphs: list = field(default_factory=list)  # plain text, one paragraph each
    code: Optional[str] = None  # a block shown as it is (history, logs)
    table: Optional[Table] = None


@dataclass
class Document:
    title: str
    sections: list = field(default_factory=list)
