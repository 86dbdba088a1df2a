"""A model written in a notebook cell reads as well as one in a file (issue 29, item 1): IPython compiles each cell
under a made-up file name and keeps its code in linecache, not on disk. Driven through real IPython shells (the
terminal's compiler and Jupyter's, ipykernel's), each in a process of its own."""
import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.subprocess  # IPython shells, each in a process of its own

CELL = '''import torch
import ttbench as tb


class CellModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        y = self.fc(x).relu_()
        return y * 2 + 1


b = tb.bringup(CellModel(), (torch.randn(2, 8),), frontend="dynamo", tt=False)
'''

SESSION = '''
import json, sys
from IPython.core.interactiveshell import InteractiveShell
kind = sys.argv[1]
if kind == "jupyter":
    from ipykernel.compiler import XCachingCompiler
    shell = InteractiveShell.instance(compiler_class=XCachingCompiler)
else:
    shell = InteractiveShell.instance()
shell.run_cell("x = 1", store_history=True)  # the model's cell is the second: In[2]
result = shell.run_cell(sys.stdin.read(), store_history=True)
assert result.success, result.error_in_exec
b = shell.user_ns["b"]
ops = {op.name: (op.location.file, op.location.short, op.location.code()) for op in b.stages["fx"].ops if op.location}
inplace = [(f.location.short if f.location else None) for f in b.findings.of("inplace", "fx")]
print("RESULT", json.dumps({"ops": ops, "inplace": inplace, "html": b._repr_html_()}))
'''


@pytest.mark.parametrize("compiler", ["terminal", "jupyter"])
def test_a_model_in_a_cell_shows_its_code_and_cell_in_view_and_findings(compiler):
    done = subprocess.run([sys.executable, "-c", SESSION, compiler], input=CELL, capture_output=True, text=True,
                          timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stderr[-3000:]
    got = json.loads(lines[0][len("RESULT "):])
    file, short, code = got["ops"]["Tensor.relu_"]
    assert ("ipykernel" in file) if compiler == "jupyter" else file.startswith("<ipython-input-2-")
    assert short == "In[2]:11" and code == "y = self.fc(x).relu_()"
    assert got["ops"]["_operator.add"][1:] == ["In[2]:12", "return y * 2 + 1"]
    assert got["inplace"] == ["In[2]:11"]  # the finding names the cell, not a hashed file name
    assert "y = self.fc(x).relu_()" in got["html"] and "In[2]:11" in got["html"]  # the view's code column


MAGIC_SESSION = '''
import json, sys
from IPython.core.interactiveshell import InteractiveShell
from ipykernel.compiler import XCachingCompiler

shell = InteractiveShell.instance(compiler_class=XCachingCompiler)
for cell in json.loads(sys.stdin.read()):
    result = shell.run_cell(cell, store_history=True)
    assert result.success, result.error_in_exec
b = shell.user_ns["b"]
ops = {op.name: (op.location.short, op.location.code()) for op in b.stages["fx"].ops if op.location}
located = {name: sum(op.location is not None for op in s.ops) for name, s in b.stages.items()}
lost = [f.message for f in b.findings.of("location_lost", "fx") if f.location is None and f.op is None]
print("RESULT", json.dumps({"ops": ops, "located": located, "lost": lost}))
'''

MODEL_CLASS = CELL.split("class CellModel", 1)[1].split("\\n\\n\\nb = ", 1)[0]


def _magic_session(cells: list) -> dict:
    done = subprocess.run([sys.executable, "-c", MAGIC_SESSION], input=json.dumps(cells), capture_output=True,
                          text=True, timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stderr[-3000:]
    return json.loads(lines[0][len("RESULT "):])


def test_a_model_defined_in_a_time_cell_keeps_its_lines():
    """IPython runs a %%time cell's body as `<timed exec>`, counted from the body and kept nowhere: the lines map
    back to the cell (In[3] here, under a blank line and after an older %%time cell with another forward)."""
    other = "%%time\nclass Other(torch.nn.Module):\n    def forward(self, x):\n        return x.relu_()\n"
    timed = "%%time\n\nclass CellModel" + MODEL_CLASS + "\nm = CellModel()\n"
    got = _magic_session(["import torch\nimport ttbench as tb", other, timed,
                          "b = tb.bringup(m, (torch.randn(2, 8),), frontend='export', tt=False)"])
    assert got["ops"]["aten.relu.default"] == ["In[3]:9", "y = self.fc(x).relu_()"]
    assert got["ops"]["aten.add.Tensor"] == ["In[3]:10", "return y * 2 + 1"]
    assert got["located"]["stablehlo"] > 0


def test_a_model_whose_code_keeps_no_source_says_why_in_one_line():
    source = "class CellModel" + MODEL_CLASS
    got = _magic_session(["import torch\nimport ttbench as tb", f"exec({source!r})",
                          "b = tb.bringup(CellModel(), (torch.randn(2, 8),), frontend='export', tt=False)"])
    assert got["located"]["fx"] == 0
    assert len(got["lost"]) == 1 and "<string>" in got["lost"][0] and "\n" not in got["lost"][0], got["lost"]


EXPLORER_SESSION = '''
import json, sys
from IPython.core.interactiveshell import InteractiveShell
from ipykernel.compiler import XCachingCompiler
shell = InteractiveShell.instance(compiler_class=XCachingCompiler)
shell.run_cell("x = 1", store_history=True)
assert shell.run_cell(sys.stdin.read(), store_history=True).success  # In[2]
import ttbench as tb
from ttbench.render.model_explorer import stage_graph
b = shell.user_ns["b"]
ex = tb.explore(b)
found = {}
for text in ("In[2]:11", "ipykernel", "11"):
    ex.line.value = text
    found[text] = [len(box.options) for box in ex.lists.children]
sources = [a["value"] for n in stage_graph(b.stages["fx"])["graphs"][0]["nodes"] for a in n["attrs"]
           if a["key"] == "source"]
print("RESULT", json.dumps({"found": found, "sources": sources}))
'''


def test_the_explorer_filter_finds_a_cell_line_by_the_label_it_shows():
    """Issue 44, item 9: `In[2]:11` found nothing (the filter read the hidden file name), and a fragment of that
    name matched every op; Model Explorer's nodes named the made-up file too."""
    done = subprocess.run([sys.executable, "-c", EXPLORER_SESSION], input=CELL, capture_output=True, text=True,
                          timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stderr[-3000:]
    got = json.loads(lines[0][len("RESULT "):])
    assert got["found"]["In[2]:11"][0] >= 1 and got["found"]["ipykernel"] == [0, 0]
    assert got["found"]["11"] == got["found"]["In[2]:11"]  # only the ops of that line, not every op
    assert got["sources"] and set(got["sources"]) <= {"In[2]:11", "In[2]:12"}


def test_a_model_defined_in_a_capture_cell_keeps_its_cell_and_lines():
    """%%capture runs its body as a cell of its own: IPython named it the next cell (In[3]) and counted its lines
    from the body, one short."""
    captured = "%%capture out\nclass CellModel" + MODEL_CLASS + "\nm = CellModel()\n"
    got = _magic_session(["import torch\nimport ttbench as tb", captured,
                          "b = tb.bringup(m, (torch.randn(2, 8),), frontend='export', tt=False)"])
    assert got["ops"]["aten.relu.default"] == ["In[2]:8", "y = self.fc(x).relu_()"]
