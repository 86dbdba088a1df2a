"""Progress in a real notebook kernel (issue 29, item 6): a bar's elapsed time ticks while a step is silent, and a
closed bar, finished or not, leaves nothing in the cell's saved output."""
import json

import nbformat
import pytest
from nbclient import NotebookClient

pytestmark = pytest.mark.subprocess  # a real notebook kernel

CELL = """
import time
from ttbench.progress import bar

slow = bar(3, "slow stage")
slow.update(1)
time.sleep(2.6)  # a stage that reports nothing for a while
slow.close()  # unfinished, as when the input check fails
print("done")
"""


def test_a_notebook_bar_ticks_while_silent_and_leaves_nothing_when_closed():
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CELL)])
    NotebookClient(notebook, timeout=240, kernel_name="python3").execute()
    outputs = notebook.cells[0].outputs
    assert [o.get("text") for o in outputs if o.output_type == "stream"] == ["done\n"]
    saved = [o for o in outputs if o.output_type == "display_data"]
    assert saved and all(o.data == {"text/plain": ""} for o in saved), saved  # no "0%" left behind
    state = json.dumps(notebook.metadata.get("widgets", {}))
    assert "00:02" in state, "the elapsed time never ticked past the last update"  # 1/3 [00:02<...]


FINDINGS_CELL = """
import ttbench as tb
b = tb.bringup(*tb.models.load("mlp"), tt=False)
print(len(b.findings.of("constant")) > 0)
"""


def test_findings_show_a_bar_in_a_notebook():
    """Issue 30, item 3: the findings of a large model took 17 s with nothing shown."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(FINDINGS_CELL)])
    NotebookClient(notebook, timeout=240, kernel_name="python3").execute()
    outputs = notebook.cells[0].outputs
    assert [o.get("text") for o in outputs if o.output_type == "stream"] == ["True\n"]
    state = json.dumps(notebook.metadata.get("widgets", {}))
    assert "findings" in state and "meaning" in state  # the bar, through to its last analysis
    assert all(o.data == {"text/plain": ""} for o in outputs if o.output_type == "display_data")
