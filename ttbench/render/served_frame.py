"""A page ttbench serves from a child process (Model Explorer, netron), as a notebook shows it: an IFrame."""
from __future__ import annotations

import html

from ..proc.servers import ServerProcess


class ServedFrame:
    """One server child process and what it shows; `url`, `stop()`; an IFrame in a notebook."""

    def __init__(self, what: str, served: ServerProcess, height: int):
        self.what, self.served, self.url, self.height = what, served, served.url, height
        self.process = served.process

    def stop(self) -> None:
        self.served.stop()

    def _repr_html_(self) -> str:
        return (f"<iframe src='{html.escape(self.url)}' width='100%' height='{int(self.height)}' "
                f"style='border:1px solid #d0d7de'></iframe>")

    def __repr__(self) -> str:
        return f"{self.what} at {self.url}"
