"""The committed notebooks read clean (issue 29): no warning, no path from the machine that ran them, no progress
bar left in a saved output. They are re-executed with `make notebooks`; this fails when one slips back in."""
import json
import pathlib
import re

import pytest
from tests.paths import REPO

NOTEBOOKS = sorted((pathlib.Path(REPO) / "notebooks").glob("*.ipynb"))
MACHINE_PATH = re.compile(r"(/root/|/home/\w|/work/|/Users/|site-packages|\.venv/|/tmp/ipykernel_)")
BAR = re.compile(r"\d+%\|")  # tqdm's text: " 40%|████      | 2/5"
WARNING = re.compile(r"\b\w*Warning\b|^W\d{4} ", re.M)  # Python's warnings, and torch's own log lines


def _texts(output) -> list:
    """(kind, what a reader sees) of one output: HTML without its tags, scripts and styles (a view's tooltips and
    data name full paths on purpose: they are for the live notebook's user)."""
    if output.get("output_type") == "stream":
        return [("stream:" + output.get("name", ""), "".join(output.get("text", "")))]
    out = []
    for kind, value in output.get("data", {}).items():
        text = "".join(value) if isinstance(value, list) else str(value)
        if kind == "text/html":
            text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
            text = re.sub(r"<[^>]*>", " ", text)
        if kind.startswith("text/"):
            out.append((kind, text))
    return out


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_the_committed_notebook_has_no_warning_machine_path_or_stale_bar(path):
    notebook = json.loads(path.read_text())
    found = []
    for number, cell in enumerate(notebook["cells"]):
        for output in cell.get("outputs", ()):
            for kind, text in _texts(output):
                for name, pattern in (("warning", WARNING), ("machine path", MACHINE_PATH), ("progress bar", BAR)):
                    if name == "warning" and kind != "stream:stderr":
                        continue
                    hit = pattern.search(text)
                    if hit:
                        found.append(f"cell {number}: {name} in {kind}: {text[max(0, hit.start() - 60):hit.end() + 60]!r}")
    assert not found, "\n".join(found)
