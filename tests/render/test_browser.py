"""The bringup view in a real browser (Debian's Chromium through Playwright): following one source line, module or
op through every stage, in a saved page with two bringups and in JupyterLab."""
import json
import os
import re
import socket
import subprocess
import sys
import time

import pytest
import torch

import ttbench as tb
from ttbench.analysis.op_kinds import needs_location

from tests.browser import REPO, browser_page, screenshot

pytestmark = pytest.mark.browser  # Debian's chromium through Playwright

LINE = 15  # models/mlp/loader.py:15, `x = torch.relu(self.fc2(x))`


def _drawn(b, stage, indices):
    """The op indices the view draws for `indices` (an op folded into a repeat is drawn as its twin)."""
    r = b.findings.repeats.get(stage)
    return {r.twin(i) if r is not None and r.folded(i) else i for i in indices}


def _expected(b, line=None, module=None):
    out = {}
    for name, stage in b.stages.items():
        out[name] = _drawn(b, name, [op.index for op in stage.ops
                                     if (line is None or (op.location is not None and op.location.line == line
                                                          and needs_location(op.name)))
                                     and (module is None or (op.module or "").split(".")[0] == module)])
    return out


def _selected(view):
    """stage -> op indices highlighted in one view."""
    out = {}
    for pane in view.locator("section.pane").all():
        stage = pane.get_attribute("id").rsplit("stage-", 1)[1]
        out[stage] = {int(t) for t in pane.locator(".op.sel .ln").all_inner_texts()}
    return out


@pytest.fixture(scope="module")
def two_mlps(tmp_path_factory):
    """The same model twice on one page (two frontends, the same source lines): a link must not cross over."""
    m, x = tb.models.load("mlp")
    first = tb.bringup(m, x, tt=True, name="mlp")
    second = tb.bringup(m, x, frontend="dynamo", tt=True, name="mlp")
    assert first.ok and second.ok, (first.table(), second.table())
    path = tb.save_html(str(tmp_path_factory.mktemp("page") / "two.html"), first, second)
    return first, second, path


def test_selecting_a_line_lights_its_ops_in_all_five_stages_of_that_view_only(two_mlps):
    first, second, path = two_mlps
    with browser_page() as page:
        page.goto("file://" + path)
        views = page.locator("div.ttb")
        assert views.count() == 2 and page.locator("div.ttb.js").count() == 2, page.errors
        row = views.nth(0).locator("tr[data-k]").filter(has_text=f"loader.py:{LINE}")
        assert "torch.relu(self.fc2(x))" in row.inner_text()  # the source pane shows the code
        row.click()
        selected = _selected(views.nth(0))
        expected = _expected(first, line=LINE)
        assert list(selected) == ["fx", "torchfx", "stablehlo", "ttir", "ttnn"]
        for stage in selected:
            assert selected[stage] and selected[stage] == expected[stage], stage
        assert views.nth(1).locator(".sel").count() == 0
        for pane in views.nth(0).locator("section.pane").all():  # folds holding a selected op are opened
            assert all(op.is_visible() for op in pane.locator(".op.sel").all())
        status = views.nth(0).locator(".ttb-sel").inner_text()
        assert f"loader.py:{LINE}" in status and "ttnn " in status
        screenshot(page, "two_bringups_line_selected.png")

        # an op of the second view selects its own line there, in every stage; the first view keeps its selection
        before = _selected(views.nth(0))
        ttnn_op = next(op for op in second.stages["ttnn"].ops if op.location and op.location.line == LINE
                       and needs_location(op.name))
        views.nth(1).locator(f"[id$='op-ttnn-{ttnn_op.index}']").click(position={"x": 60, "y": 5})
        assert _selected(views.nth(0)) == before
        row2 = views.nth(1).locator("tr.sel[data-k]")
        assert row2.count() == 1 and f"loader.py:{LINE}" in row2.inner_text()
        assert all(_selected(views.nth(1)).values())
        assert not page.errors


def test_selecting_a_module_lights_its_ops_and_hidden_panes_give_their_width(two_mlps):
    first, _, path = two_mlps
    with browser_page() as page:
        page.goto("file://" + path)
        view = page.locator("div.ttb").nth(0)
        view.locator("tr[data-m]").filter(has_text="fc2").click()
        selected, expected = _selected(view), _expected(first, module="fc2")
        for stage in selected:
            assert selected[stage] and selected[stage] == expected[stage], stage
        pane = view.locator("section.pane").nth(0)
        width = pane.bounding_box()["width"]
        for stage in ("torchfx", "stablehlo"):
            view.locator(f".ttb-ctl input[data-stage='{stage}']").uncheck()
        assert not view.locator("section.pane").nth(1).is_visible()
        assert pane.bounding_box()["width"] > width * 1.3  # three panes now share the width five had
        panes = [p.bounding_box() for p in view.locator("section.pane").all() if p.is_visible()]
        assert max(b["x"] + b["width"] for b in panes) <= 1440  # every shown stage is on screen
        screenshot(page, "module_selected_three_panes.png")
        assert not page.errors


def test_the_report_shows_the_stage_panes_above_the_fold_and_plots_below_them(two_mlps, tmp_path):
    """Issue 29, item 4: in report.html at 1440x900 the stage panes started below the fold, under the plots."""
    path = two_mlps[0].save_html(str(tmp_path / "report.html"))  # what `bringup --out` writes, plots and all
    with browser_page() as page:
        page.goto("file://" + path)
        view = page.locator("div.ttb").nth(0)
        first_pane = view.locator("section.pane").first.bounding_box()
        assert first_pane["y"] < 900 - 100, first_pane  # a pane's header and its first ops are on the first screen
        plots = view.locator("details.plots")
        assert plots.count() == 1 and plots.bounding_box()["y"] > first_pane["y"]  # folded, after the panes
        assert plots.get_attribute("open") is None
        screenshot(page, "report_first_screen.png")


def test_static_anchors_work_without_javascript(two_mlps):
    first, second, path = two_mlps
    html_text = open(path).read()
    ids = re.findall(r"id='([^']+)'", html_text)
    assert len(ids) == len(set(ids))
    links = re.findall(r"href='#([^']+)'", html_text)
    assert links and set(links) <= set(ids)
    with browser_page(javascript=False) as page:
        page.goto("file://" + path)
        view = page.locator("div.ttb").nth(1)
        assert view.locator(".ttb-ctl").is_hidden()  # the controls need the script
        view.locator("tr[data-k]").filter(has_text=f"loader.py:{LINE}").locator("a").last.click()
        target = page.evaluate("location.hash")
        assert target.startswith("#mlp-dynamo-args-") and "op-ttnn-" in target


def test_resnet50_view_is_interactive_within_two_seconds(zoo_bringup, tmp_path):
    b = zoo_bringup("resnet50")
    path = b.save_html(str(tmp_path / "resnet50.html"), plots=False)
    assert os.path.getsize(path) <= 2e6
    with browser_page() as page:
        page.goto("file://" + path)
        ready = int(page.locator("div.ttb").get_attribute("data-ready-ms"))
        assert ready <= 2000, f"time to interactive {ready} ms"
        page.locator("tr[data-k]").nth(0).click()
        assert page.locator(".op.sel").count() > 0
        assert not page.errors


def _run_cells_one_by_one(page, count: int, attempts: int = 8, timeout_s: float = 300) -> None:
    """Runs each cell with Shift+Enter and waits for it to finish before the next, so a cell is never skipped:
    with Run All, a fresh clone's CI once lost the first cell's execution while the notebook was still connecting
    to its kernel (the second cell then ran as In[1] and found no `tb`). A cell whose run does not start is asked
    again; a modal JupyterLab opens first takes its default answer and is named if the cell still never runs."""
    prompts = page.locator(".jp-Notebook .jp-Cell .jp-InputArea-prompt")
    for i in range(count):
        prompt, dialogs = prompts.nth(i), []
        for _ in range(attempts):
            page.keyboard.press("Escape")
            dialog = page.locator(".jp-Dialog")
            if dialog.count() and dialog.first.is_visible():
                dialogs.append(dialog.first.inner_text()[:200])
                accept = dialog.first.locator(".jp-Dialog-button.jp-mod-accept")
                if accept.count():
                    accept.first.click()
                continue
            page.locator(".jp-Notebook .jp-Cell").nth(i).locator(".jp-InputArea-editor").click()
            page.keyboard.press("Shift+Enter")
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and not re.search(r"\[(\*|\d+)\]", prompt.inner_text()):
                time.sleep(0.5)
            if re.search(r"\[(\*|\d+)\]", prompt.inner_text()):
                break
        else:
            raise AssertionError(f"JupyterLab never started cell {i} (dialogs it showed: {dialogs})")
        deadline = time.monotonic() + timeout_s
        while not re.search(r"\[\d+\]", prompt.inner_text()):
            if time.monotonic() > deadline:
                raise AssertionError(f"cell {i} did not finish in {timeout_s:.0f} s; prompts: "
                                     f"{prompts.all_inner_texts()}")
            time.sleep(0.5)


CELL_MODEL = """%%time
import torch


class CellNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(16, 16)

    def forward(self, x):
        y = self.fc(x)
        return torch.relu(y) * 2  # CELL_LINE


cell = tb.bringup(CellNet(), (torch.randn(2, 16),), name="cellnet")
cell"""
CELL_LINE = next(i for i, l in enumerate(CELL_MODEL.splitlines(), 1) if l.endswith("# CELL_LINE"))


def _a_model_from_a_cell_reads_well(page, view):
    """Issue 29, items 1 and 4: the model defined in cell 3 (a %%time cell: IPython runs its body as `<timed exec>`,
    issue 44 item 2) shows its code in the source pane (In[3]:N, not a
    hashed file name with no code), a selected line lights its ops in every stage, and at 1280x800 the code reads
    left to right, the per-stage counts are in view, and (issue 44, item 5) the TTNN pane is on screen without
    scrolling: the earliest stages fold away to fit, said so and a tick away, and no shown pane is squeezed."""
    row = view.locator("tr[data-k]").filter(has_text=f"In[3]:{CELL_LINE}")
    code = row.locator("code")
    assert code.inner_text() == "return torch.relu(y) * 2  # CELL_LINE"
    assert code.evaluate("e => getComputedStyle(e.closest('td')).textAlign") == "left"
    row.locator("a").first.click()
    selected = _selected(view)
    assert list(selected) == ["fx", "torchfx", "stablehlo", "ttir", "ttnn"] and all(selected.values()), selected
    view.scroll_into_view_if_needed()
    source = view.locator("details.src").bounding_box()
    for stage in ("fx", "ttnn"):  # the counts: within the source pane's box, not scrolled off to the right
        head = view.locator("details.src th", has_text=stage).first.bounding_box()
        assert source["x"] <= head["x"] and head["x"] + head["width"] <= source["x"] + source["width"], (stage, head)
    shown = [p for p in view.locator("section.pane").all() if p.is_visible()]
    assert shown and min(p.bounding_box()["width"] for p in shown) >= 239
    ttnn = view.locator("section.pane[id$='stage-ttnn']").bounding_box()
    panes = view.locator(".panes").bounding_box()
    assert ttnn["x"] >= panes["x"] and ttnn["x"] + ttnn["width"] <= min(panes["x"] + panes["width"], 1280), ttnn
    hidden = [s for s in selected if not view.locator(f"section.pane[id$='stage-{s}']").is_visible()]
    assert hidden == list(selected)[:len(hidden)] and "ttnn" not in hidden  # the earliest ones, if any
    if hidden:
        assert "folded to fit the width" in view.locator(".ttb-ctl").inner_text()
    view.locator("section.pane[id$='stage-ttnn']").scroll_into_view_if_needed()
    screenshot(page, "jupyterlab_cell_model_1280x800.png")


def test_following_a_line_inside_jupyterlab(tmp_path):
    """The same in a real JupyterLab: a notebook that shows two bringups is run there; JupyterLab swallows in-page
    links, so the view's script has to do the following itself."""
    import nbformat

    from tests.browser import jupyterlab

    cells = ['import ttbench as tb\nm, x = tb.models.load("mlp")\nfirst = tb.bringup(m, x, name="mlp")\nfirst',
             'second = tb.bringup(m, x, frontend="dynamo", name="mlp")\nsecond',
             CELL_MODEL]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, str(tmp_path / "two_views.ipynb"))
    with jupyterlab(str(tmp_path)) as (url, token), browser_page() as page:
        page.set_default_timeout(60_000)
        page.set_viewport_size({"width": 1280, "height": 800})  # a laptop's JupyterLab
        page.goto(f"{url}/lab/tree/two_views.ipynb?token={token}")
        page.locator(".jp-Notebook .jp-Cell").first.wait_for()
        page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(timeout=120_000)
        _run_cells_one_by_one(page, len(cells))
        try:
            page.locator("div.ttb.js").nth(2).wait_for(timeout=60_000)
        except Exception:
            screenshot(page, "jupyterlab_failed.png")
            outputs = page.locator(".jp-OutputArea-output").all_inner_texts()
            prompts = page.locator(".jp-Cell .jp-InputArea-prompt").all_inner_texts()
            raise AssertionError(f"the three views did not come up in JupyterLab; prompts: {prompts}; "
                                 f"outputs: {outputs}") from None
        views = page.locator("div.ttb")
        assert views.count() == 3
        _a_model_from_a_cell_reads_well(page, views.nth(2))
        before_url = page.url
        views.nth(1).locator("tr[data-k]").filter(has_text=f"loader.py:{LINE}").locator("a").first.click()
        assert page.url == before_url  # the link was followed by the view, not by JupyterLab
        selected = _selected(views.nth(1))
        assert list(selected) == ["fx", "torchfx", "stablehlo", "ttir", "ttnn"]
        assert all(selected.values()), selected
        assert views.nth(0).locator(".sel").count() == 0
        screenshot(page, "jupyterlab_line_selected.png")
        assert not [e for e in page.errors if "ttb" in e], page.errors


def test_hostile_names_and_code_stay_text_in_the_browser(tmp_path):
    """A model whose module name, file name and source line are markup: nothing runs, the view still works."""
    import torch

    evil = "<img src=x onerror=alert(1)></script><script>alert(2)</script>"
    from tests.render.test_render import evil_model

    b = tb.bringup(evil_model(tmp_path, "evil_<b>.py", evil), (torch.randn(2, 4),), tt=False, name=evil)
    path = b.save_html(str(tmp_path / "evil.html"))
    with browser_page() as page:
        dialogs = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto("file://" + path)
        assert page.locator("div.ttb.js").count() == 1 and not page.errors
        row = page.locator("tr[data-k]").filter(has_text="evil_<b>.py:7")
        assert evil in row.inner_text()  # the line's code, shown as text
        row.click()
        assert page.locator(".op.sel").count() > 0
        assert page.locator("tr[data-m]").nth(1).locator("td").first.get_attribute("title") == evil  # module
        assert page.locator("img").count() == 1  # the plots; no image from a name
        assert not dialogs and not page.errors


def test_a_module_in_a_folded_repeat_lights_its_twins_in_the_first_block():
    """An LLM's layers are folded into the first one: selecting layer 2 marks the first block's ops and says so."""
    from tests.pipeline.test_llm import meta_twin, tiny_config
    import torch

    b = tb.bringup(meta_twin(tiny_config(num_hidden_layers=6)), (torch.randint(0, 256, (1, 8)),), name="tiny_llama")
    r = b.findings.repeats["torchfx"]
    with browser_page() as page:
        page.set_content(b._repr_html_())
        layer = page.locator("tr[data-m] td[title='model.layers.2']")
        assert layer.is_hidden()  # a deep tree starts folded below its second level
        page.locator("tr[data-m] td[title='model.layers'] .tw").click()
        assert layer.is_visible()
        layer.click()
        shown = {int(t) for t in page.locator("[id$='stage-torchfx'] .op.sel .ln").all_inner_texts()}
        assert shown and all(r.start <= i < r.start + r.length for i in shown)
        assert "folded repeats" in page.locator(".ttb-sel").inner_text()
        page.locator("tr[data-m] td[title='model.layers'] .tw").click()  # folded again ...
        assert layer.is_hidden()
        page.locator("[id$='stage-fx'] .op.sel").first.click()  # ... an op of layer 2's twin reveals its module
        module_row = page.locator("tr.sel[data-m] td").first
        assert module_row.is_visible() and module_row.get_attribute("title").startswith("model.layers.")
        assert not page.errors


def test_the_view_works_in_a_notebook_exported_to_html(tmp_path):
    """Run in a kernel, exported by nbconvert (what a user mails around): the script still follows a line."""
    import nbclient
    import nbconvert
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        'import ttbench as tb\nm, x = tb.models.load("mlp")\nb = tb.bringup(m, x, tt=False, name="mlp")\nb')])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbclient.NotebookClient(nb, timeout=300, resources={"metadata": {"path": str(tmp_path)}}).execute()
    body, _ = nbconvert.HTMLExporter().from_notebook_node(nb)
    page_path = tmp_path / "exported.html"
    page_path.write_text(body)
    with browser_page() as page:
        page.goto(f"file://{page_path}")
        page.locator("div.ttb.js").wait_for()
        page.locator("tr[data-k]").filter(has_text=f"loader.py:{LINE}").click()
        assert all(_selected(page.locator("div.ttb")).values())
        assert not [e for e in page.errors if "ttb" in e]


def test_a_stage_comparison_shows_its_first_divergence_in_red(zoo_bringup, tmp_path):
    """fc2's matmul with transpose_b flipped in mlp's TTNN text: the comparison page, in Chromium, has exactly that
    row marked, red, on screen, with its line and module; a model named in markup stays text and runs nothing."""
    import torch

    from tests.tt.interp.test_programs import _edited, _flip_transpose_b, _replace_nth
    from tests.render.test_render import evil_model

    b = zoo_bringup("mlp", "export", "args", tt=True)
    matmuls = [op for op in b.stages["ttnn"].ops if op.name == "ttnn.matmul"]
    target = next(op for op in matmuls if op.module == "fc2")
    broken = _edited(b, "ttnn", lambda t: _replace_nth(t, '"ttnn.matmul"', matmuls.index(target), _flip_transpose_b))
    evil = "<img src=x onerror=alert(1)>"
    hostile = tb.bringup(evil_model(tmp_path, "evil_<b>.py", evil), (torch.randn(2, 4),), name=evil)
    path = tb.save_html(str(tmp_path / "compare.html"), broken.compare_stages("stablehlo", "ttnn"),
                        hostile.compare_stages("stablehlo", "ttnn"))
    with browser_page() as page:
        dialogs = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto("file://" + path)
        row = page.locator("tr", has_text="first divergence")
        assert row.count() == 1
        row.scroll_into_view_if_needed()
        assert row.is_visible() and f"#{target.index}" not in row.inner_text()  # the index is its own cell
        cells = row.locator("td").all_inner_texts()
        assert cells[0] == str(target.index) and cells[1].startswith("ttnn.matmul")
        assert cells[2] == "loader.py:15" and cells[3] == "fc2"
        assert row.evaluate("r => getComputedStyle(r).backgroundColor") == "rgb(255, 205, 210)"
        screenshot(page, "stage_comparison_first_divergence.png")
        first_row = page.locator(".ttbench-compare").nth(1).locator("tbody tr").first.locator("td").all_inner_texts()
        assert first_row[2] == "evil_<b>.py:7" and first_row[3] == evil  # shown as text
        assert page.locator("img").count() == 0 and not dialogs and not page.errors


def test_bookkeeping_ops_show_only_when_asked_for(two_mlps):
    first, _, path = two_mlps
    freed = next(op.index for op in first.stages["ttnn"].ops if op.name == "ttnn.deallocate")
    with browser_page() as page:
        page.goto("file://" + path)
        view = page.locator("div.ttb").nth(0)
        line = view.locator(f"section.pane[id$='stage-ttnn'] .op.bk").filter(
            has=page.locator(f"text=/^{freed}$/")).first
        assert line.count() == 1 and not line.is_visible()
        view.locator(".ttb-ctl input[data-bookkeeping]").check()
        view.locator("section.pane[id$='stage-ttnn'] details.fold").evaluate_all("ds => ds.forEach(d => d.open = true)")
        assert line.is_visible()
        assert not page.errors


def test_selecting_a_fused_line_lights_the_op_it_runs_inside(tmp_path):
    from tests.analysis.test_findings import FusedRelu, line_of

    b = tb.bringup(FusedRelu(), (torch.randn(4, 8),))
    loc = next(op.location for op in b.stages["ttir"].ops if op.location and op.location.line == line_of("LINE_FUSED"))
    host = b.findings.fused["ttnn"][loc].hosts[0]
    path = tb.save_html(str(tmp_path / "fused.html"), b)
    with browser_page() as page:
        page.goto("file://" + path)
        view = page.locator("div.ttb").nth(0)
        row = view.locator("tr[data-k]").filter(has_text=loc.short)
        assert row.locator("td.fused").inner_text() == "fused"
        row.click()
        assert _selected(view)["ttnn"] == {host}
        assert "ttnn 1" in view.locator(".ttb-sel").inner_text()
        assert not page.errors
