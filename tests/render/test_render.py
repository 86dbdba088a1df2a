"""The notebook view and report.html (issue 5): structure, highlights, anchors, escaping, determinism."""
import os
import json
import re
from html.parser import HTMLParser

import pytest
import torch

import ttbench as tb

EVIL = "<script>alert(1)</script>"


class Elements(HTMLParser):
    """Every start tag with its attributes, in document order; text collected for a few checks."""

    def __init__(self, text):
        super().__init__()
        self.elements, self.text = [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)

    def by_id(self):
        return {a["id"]: (t, a) for t, a in self.elements if "id" in a}


def test_stages_side_by_side_with_findings_and_source_links(zoo_bringup):
    b = zoo_bringup("mlp", params="inline", tt=True)
    page = b._repr_html_()
    doc = Elements(page)
    ids = doc.by_id()
    panes = [a["id"] for t, a in doc.elements if t == "section" and "pane" in a.get("class", "")]
    prefix = panes[0].rsplit("stage-", 1)[0]  # the view's own: ids never collide with another view's
    assert prefix.startswith("mlp-export-inline-")
    assert panes == [f"{prefix}stage-{n}" for n in b.stages]  # columns in pipeline order
    # every finding that names an op is highlighted on that op, with its kind's class
    for f in b.findings:
        index = f.details.get("index")
        if index is None:
            continue
        tag, attrs = ids[f"{prefix}op-{f.stage}-{index}"]
        assert f"f-{f.kind}" in attrs["class"].split(), (f, attrs)
    # source-line anchors: each row links to ops that exist, and lines reach ops in at least two stages
    rows = [a["id"] for t, a in doc.elements if t == "tr" and a.get("id", "").startswith(prefix + "src-")]
    assert rows
    links = [a["href"][1:] for t, a in doc.elements if t == "a" and a.get("href", "").startswith(f"#{prefix}op-")]
    assert links and all(target in ids for target in links)
    stages_per_line = {}
    row = None
    for t, a in doc.elements:
        if t == "tr" and a.get("id", "").startswith(prefix + "src-"):
            row = a["id"]
        elif t == "a" and row and a.get("href", "").startswith(f"#{prefix}op-"):
            stages_per_line.setdefault(row, set()).add(a["href"][len(prefix) + 1:].split("-")[1])
    assert all(len(s) >= 2 for s in stages_per_line.values())
    assert "constant: 8.0 KiB" in page  # inlined constants carry their size
    # ops link back to their source row
    back = [a["href"] for t, a in doc.elements if t == "a" and "ln" in a.get("class", "")]
    assert back and all(h[1:] in ids for h in back)


@pytest.mark.subprocess  # renders in other processes
def test_ids_are_deterministic_across_processes():
    import subprocess
    import sys

    script = ("import re, ttbench as tb; m, x = tb.models.load('mlp'); "
              "print(re.findall(r\"id='([^']+)'\", tb.bringup(m, x, tt=False, name='mlp')._repr_html_()))")
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True) for _ in range(2)]
    assert runs[0].returncode == 0, runs[0].stderr
    assert runs[0].stdout == runs[1].stdout and "mlp-export-args-op-" in runs[0].stdout


def test_two_views_on_one_page_never_answer_each_others_links():
    """Issue 18: with the same ids in every view, clicking bert_tiny's source line landed on the MLP's op."""
    views = []
    for name in ("mlp", "mlp", "bert_tiny"):  # the same bringup shown twice, and another model
        m, x = tb.models.load(name)
        views.append(Elements(tb.bringup(m, x, tt=False, name=name)._repr_html_()))
    all_ids = [i for v in views for i in v.by_id()]
    assert len(all_ids) == len(set(all_ids))
    for view in views:
        own = view.by_id()
        links = [a["href"][1:] for t, a in view.elements if t == "a" and a.get("href", "").startswith("#")]
        assert links and all(target in own for target in links)  # every link lands in its own view


def evil_model(folder, file_name: str, name: str):
    """A model defined in a file called `file_name`, whose submodule is called `name` and whose forward line ends in
    a comment holding `name`: markup in every place a view shows."""
    source = folder / file_name
    source.write_text(
        "import torch\n"
        "class Evil(torch.nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        f"        self.add_module({name!r}, torch.nn.Linear(4, 4))\n"
        "    def forward(self, x):\n"
        f"        return getattr(self, {name!r})(x).relu()  # {name}\n")
    namespace = {}
    exec(compile(source.read_text(), str(source), "exec"), namespace)
    return namespace["Evil"]()


@pytest.mark.tt  # its assertions need the Tenstorrent compiler's stages
def test_untrusted_names_render_as_text(tmp_path):
    b = tb.bringup(evil_model(tmp_path, "evil_<script>alert(1).py", EVIL), (torch.randn(2, 4),), name=EVIL)
    assert b.ok
    path = b.save_html(str(tmp_path / "report.html"))
    page = open(path).read()
    # the view's own two scripts (its data, its code) and nothing else; the data cannot close its element early
    assert [tag.split(" id=")[0] for tag in re.findall(r"<script[^>]*>", page)] == \
        ["<script type='application/json'", "<script>"]
    assert "alert(1)</script>" not in page
    text = "".join(Elements(page).text)
    assert EVIL in text  # shown, as text: model name and the parameter names in the IR
    assert "evil_<script>alert(1).py" in text  # the source file name in the source pane


def test_large_models_are_folded_and_capped(zoo_bringup):
    from ttbench.render.bringup_html import FOLD_AFTER

    b = zoo_bringup("mobilenet_v2")
    page = b._repr_html_()
    assert page.count("class='fold'") > 5 and "ops without findings" in page
    assert len(page) < 2_000_000
    assert not re.search(r"0x[0-9A-Fa-f]{32,}", page)  # no weight payloads
    # a fold hides only runs longer than FOLD_AFTER ops, each summarised with its count
    counts = [int(n) for n in re.findall(r"(\d+) ops without findings", page)]
    assert counts and min(counts) > FOLD_AFTER


def test_export_folder_has_report_with_plots(tmp_path, zoo_bringup):
    out = zoo_bringup("mlp").export(str(tmp_path / "mlp"))
    page = open(os.path.join(out, "report.html")).read()
    assert page.startswith("<!doctype html>") and "data:image/png;base64," in page
    assert "http://" not in page and "https://" not in page  # opens without a network


def test_fx_graph_coloured_by_findings_and_clustered_by_module():
    from tests.analysis.test_findings import InPlace

    from ttbench import optional

    b = tb.bringup(InPlace(), (torch.randn(4, 8),), frontend="dynamo", tt=False)
    g = b.stages["fx"].graph()
    assert g.dot.count('fillcolor="#d1242f"') == 3  # the three in-place ops
    assert "subgraph cluster_" in g.dot and "lin" in g.dot  # the Linear's module path
    assert optional.dot().available, "make setup installs Debian's graphviz; graph views are tested for real"
    svg = g._repr_html_()
    assert "<svg" in svg and "Tensor.relu_" in svg


def test_a_stage_alone_draws_its_bringups_findings_and_a_copy_leaves_the_model_behind():
    import copy
    import pickle

    from tests.analysis.test_findings import InPlace

    fx = tb.bringup(InPlace(), (torch.randn(4, 8),), frontend="dynamo", tt=False).stages["fx"]
    assert fx.graph().dot.count('fillcolor="#d1242f"') == 3  # nothing else holds the bringup: its findings still colour
    copied, deep = copy.copy(fx), copy.deepcopy(fx)
    assert copied.bringup() is None and deep.bringup() is None  # the model and its weights stay behind
    assert deep.ops == fx.ops and deep.graph().dot.count('fillcolor="#d1242f"') == 0  # drawn as a stage on its own
    text_only = copy.copy(fx)
    text_only.module = text_only._full_text = None
    assert pickle.loads(pickle.dumps(text_only)).ops == fx.ops and b"InPlace" not in pickle.dumps(text_only)


def test_mlir_graph_is_capped_and_says_so_and_falls_back_without_dot(zoo_bringup, monkeypatch):
    from ttbench import optional
    from ttbench.analysis.op_kinds import is_bookkeeping

    stage = zoo_bringup("mobilenet_v2").stages["torchfx"]
    g = stage.graph(max_nodes=50)
    hidden = sum(is_bookkeeping(op.name) for op in stage.ops)  # argument lists: drawn with bookkeeping=True
    assert g.shown == 50 and g.total == len(stage.ops) - hidden and f"showing 50 of {g.total} ops ({hidden} " \
        "bookkeeping ops not drawn" in g.dot
    assert " -> " in g.dot  # def-use edges
    only_conv = stage.graph(op_filter="convolution")
    assert only_conv.total == sum("convolution" in op.name for op in stage.ops)
    monkeypatch.setattr(optional, "dot", lambda: optional.Piece("dot", False, "", "apt-get install graphviz"))
    fallback = g._repr_html_()
    assert "apt-get install graphviz" in fallback and "digraph stage" in fallback and "<svg" not in fallback


def _status(url, **headers):
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as r:
            return r.status, r.read(), r.headers
    except urllib.error.HTTPError as exc:
        return exc.code, b"", exc.headers


def test_netron_serves_only_under_its_secret_and_stops(zoo_bringup):
    import logging
    import urllib.error
    import urllib.request

    b = zoo_bringup("mlp", frontend="onnx")
    handlers = list(logging.getLogger().handlers)
    server = b.stages["onnx"].netron()
    assert logging.getLogger().handlers == handlers  # netron runs in its own process: the user's logging untouched
    origin, secret = server.url.split("/s/")[0], server.url.split("/s/")[1].strip("/")
    assert origin.startswith("http://127.0.0.1:") and len(secret) >= 24
    status, _, headers = _status(server.url)
    assert status == 200 and "default-src 'self'" in headers["Content-Security-Policy"]
    model = b.stages["onnx"].module.SerializeToString()
    assert _status(server.url + "data/model.onnx")[:2] == (200, model)
    assert _status(origin + "/data/model.onnx", Referer=server.url)[:2] == (200, model)  # the page's own fetch
    # without the secret, from another Host or Origin: nothing
    assert _status(origin + "/")[0] == _status(origin + "/data/model.onnx")[0] == 403
    assert _status(origin + "/data/model.onnx", Referer=origin + "/s/" + "x" * len(secret) + "/")[0] == 403
    assert _status(server.url + "data/model.onnx", Host="attacker.example")[0] == 403
    assert _status(server.url + "data/model.onnx", Origin="http://attacker.example")[0] == 403
    assert "_repr_html_" in dir(server) and server.url in server._repr_html_().replace("&amp;", "&")
    tb.netron_stop()
    with pytest.raises((urllib.error.URLError, ConnectionError)):
        urllib.request.urlopen(server.url, timeout=5)
    with pytest.raises(tb.BadInput, match="netron shows the onnx stage"):
        zoo_bringup("mlp").stages["fx"].netron()


def test_explorer_filters_and_shows_an_op():
    from tests.analysis.test_findings import InPlace

    b = tb.bringup(InPlace(), (torch.randn(4, 8),), frontend="dynamo", tt=False)
    ex = tb.explore(b)
    assert [s.description for s in ex.lists.children] == ["fx", "torchfx"]
    ex.kind.value = "inplace"
    fx_list = ex.lists.children[0]
    assert [label.split(" ")[1] for label, _ in fx_list.options] == ["Tensor.relu_", "Tensor.add_", "_operator.setitem"]
    ex.line.value = "test_findings.py:18"
    assert len(ex.lists.children[0].options) == 1
    ex.lists.children[1].value = ex.lists.children[1].options[0][1]  # click the torchfx op
    assert "torch.aten.relu_" in ex.details.value and "inplace" in ex.details.value
    assert "test_findings.py:18" in ex.details.value  # its location chain
    assert "fx: 1 ops" in ex.details.value  # what the same line and module is in the other shown stage


def test_explorer_speaks_every_stages_language_and_exports_the_static_view(zoo_bringup):
    ex = tb.explore(zoo_bringup("mlp"))
    ex.stages.value = ("fx", "torchfx", "stablehlo")
    assert all(len(box.layout.width) and int(box.layout.width[:-1]) * 3 <= 100 for box in ex.lists.children)
    ex.op_filter.value = "aten.mm"  # FX's vocabulary finds the StableHLO ops it became
    lowered = [label.split(" ")[1] for label, _ in ex.lists.children[2].options]
    assert "stablehlo.dot_general" in lowered and not any("aten.mm" in name for name in lowered)
    bundle = ex._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "application/vnd.jupyter.widget-view+json" in data and "class='ttb'" in data["text/html"]


def test_bringup_in_a_notebook_shows_a_progress_bar_and_no_framework_noise(tmp_path):
    """Run in a real kernel (nbclient): the bar is a tqdm widget naming the model and its stage; torch's
    LeafSpec deprecation notice (44 s of silence on mobilenet_v2 apart from it, before) is gone."""
    import nbclient
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        'import warnings\nwarnings.simplefilter("default")\nimport ttbench as tb\nm, x = tb.models.load("mlp")\n'
        'b = tb.bringup(m, x, tt=False, name="mlp")\nprint(b.ok)')])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbclient.NotebookClient(nb, timeout=300, resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = nb.cells[0].outputs
    # the bar was a widget naming the model and the stage it ran (its saved state), and left nothing in the output
    state = json.dumps(nb.metadata.get("widgets", {}), ensure_ascii=False)  # tqdm writes figure spaces (U+2007)
    assert re.search(r"mlp:\s(fx|torchfx|stablehlo)", state), state
    assert [o.data for o in outputs if o.output_type == "display_data"] == [{"text/plain": ""}], outputs
    stderr = "".join(o.text for o in outputs if o.output_type == "stream" and o.name == "stderr")
    assert "LeafSpec" not in stderr and "FutureWarning" not in stderr, stderr
    assert "True" in "".join(o.text for o in outputs if o.output_type == "stream" and o.name == "stdout")


def test_module_tree_lists_parents_first_and_layers_in_natural_order(zoo_bringup):
    """The module pane of bert_tiny: every module once, after its parent, layer 1 after layer 0's submodules; the
    counts of a parent include its children's ops."""
    b = zoo_bringup("bert_tiny")
    page = b._repr_html_()
    titles = re.findall(r"<tr id='[^']*mod-\d+' data-m='\d+'><td title='([^']*)'", page)
    assert titles[0] == "" and len(titles) == len(set(titles))
    for i, path in enumerate(titles[1:], 1):
        parent = path.rpartition(".")[0]
        assert parent in titles[:i], path
    assert titles.index("encoder.layer.0.output.dense") < titles.index("encoder.layer.1")
    fx = b.stages["fx"]
    in_layer0 = sum(1 for op in fx.ops if (op.module or "").startswith("encoder.layer.0"))
    row = re.search(r"<td title='encoder.layer.0'[^>]*><span class='tw'>[^<]*</span>0</td><td>(\d+)</td>", page)
    assert row and int(row.group(1)) == in_layer0


def test_a_long_stage_error_is_cut_between_words_and_says_how_much_is_left():
    """Issue 29, item 7: the stage table cut errors at 160 characters, in the middle of the location."""
    from ttbench.io.export import clipped_error

    location = "/home/someone/models/encoder/model_implementation.py:123"
    error = (f"ttir: compiler failed: 'stablehlo.reduce_window' op could not be legalized to TTIR at {location} "
             f"(in encoder.layer.0.attention) while lowering the whole graph of this model\nnote: see the log")
    cut = clipped_error(error, limit=140)
    assert cut.startswith("ttir: compiler failed") and location not in cut and "model_implementation" not in cut
    assert cut.endswith(f"… (+{len(error) - cut.index(' …')} chars: the stage's .error)")
    assert location in clipped_error(error, limit=200)  # whole, or not at all
    assert clipped_error("short") == "short" and clipped_error(None) == ""


def test_the_findings_summary_fits_a_cell_and_keeps_the_rest_one_click_away(zoo_bringup):
    """Issue 29, item 7: the summary had 16 columns, coverage off screen; now nine at a glance, then every column
    and what each means under a <details>."""
    from ttbench.records.findings import SUMMARY_COLUMNS

    page = zoo_bringup("mlp").findings.summary()._repr_html_()
    glance, rest = page.split("<details>", 1)
    heads = re.findall(r"<th[^>]*>([^<]+)</th>", glance)
    assert heads == ["stage", "status", "ops", "inplace", "verifier", "constants", "constant_bytes",
                     "weights_inlined", "coverage"]
    assert all(f"<dt>{name}</dt>" in rest for name in SUMMARY_COLUMNS)
    assert "<dd>located / locatable</dd>" in rest and len(re.findall(r"<th[ >]", rest)) == len(SUMMARY_COLUMNS)


def test_each_stage_shows_one_constant_count_the_summary_agrees_with():
    """Issue 29, item 7: one model showed three constant counts in three places: the stage table's (per stage),
    the summary's, and the legend's total over every stage. Now every count shown is a stage's `constants`."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
    b = tb.bringup(model, (torch.randn(2, 16),), params="inline", tt=False)
    page = b._repr_html_()
    table = page.split("<table>", 1)[1].split("</table>", 1)[0]
    heads = re.findall(r"<th[^>]*>([^<]+)</th>", table)
    column = heads.index("inlined constant")
    shown = {}
    for row in re.findall(r"<tr><td><a[^>]*>([^<]+)</a></td>(.*?)</tr>", table):
        cells = re.findall(r"<td>(.*?)</td>", row[1])
        shown[row[0]] = int(cells[column - 1] or 0)
    summary = {r["stage"]: r["constants"] for r in b.findings.summary().rows}
    assert shown == {s: summary[s] for s in shown} and max(shown.values()) >= 4, (shown, summary)
    legend = page.split("<div class='legend'>", 1)[1].split("</div>", 1)[0]
    assert not re.search(r"inlined constant \(\d+\)", legend), legend  # no total over stages beside them


def _shown(obj) -> dict:
    """What a notebook gets for `obj` as a cell's result: IPython's own formatter, every mime type it makes."""
    from IPython.core.formatters import DisplayFormatter

    return DisplayFormatter().format(obj)[0]


def test_the_stage_table_is_an_html_table_in_a_notebook_and_text_when_printed(zoo_bringup):
    b = zoo_bringup("mlp")
    table = b.table()
    shown = _shown(table)
    assert "<table" in shown["text/html"] and "stablehlo" in shown["text/html"]
    assert "\\n" not in shown["text/html"]
    assert isinstance(table, str) and table.splitlines()[0].split() == ["stage", "ok", "ops", "seconds", "error"]


def _interpreted_report(pccs):
    from ttbench.records.results import OpByOpReport, OpRow

    from ttbench.run.op_executors import INTERPRETED_TTNN as source

    rows = [OpRow(index=i, op=f"aten.op{i}.default", count=1, inputs=["2x8 float32"], locations=[f"m.py:{i}"],
                  furthest_stage="flatbuffer", pcc=p, ok=True, pcc_from=source) for i, p in enumerate(pccs)]
    return OpByOpReport(model="m", stage="ttnn", device="tt", mode="isolated", min_pcc=0.99, rows=rows,
                        total_ops=len(rows), seconds=1.0, compile_only=True)


def test_op_by_op_html_says_once_what_produced_every_pcc():
    report = _interpreted_report([1.0, 0.9999, 1.0])
    page = report._repr_html_()
    assert "<th>pcc_from</th>" not in page and page.count("<tr>") == 1 + len(report.rows)
    assert "interpreter" in page.split("</caption>")[0]


def test_an_error_plot_separates_near_one_pccs_on_a_log_axis_and_names_the_worst():
    figure = _interpreted_report([1.0, 0.99977, 0.9999999, 1.0]).plot()
    ax = figure.axes[0]
    assert ax.get_yscale() == "log"
    heights = sorted(ax.collections[0].get_offsets()[:, 1])
    assert heights[-1] / heights[0] > 100  # 2.3e-4 stands far above 1e-7, not one flat row at 1.0
    assert "op1" in [t.get_text() for t in ax.texts]  # the outlier is named where it is drawn


def test_first_failing_op_is_a_card_not_a_dataclass_repr():
    from ttbench.records.results import OpRow

    row = OpRow(index=3, op="aten.gelu.default", count=1, inputs=["2x8 float32"], locations=["In[4]:7"],
                furthest_stage="ttir", error="failed to legalize operation 'stablehlo.custom_call'")
    page = _shown(row)["text/html"]
    assert "aten.gelu.default at In[4]:7: fails" in page and "failed to legalize" in page and "OpRow(" not in page


@pytest.mark.tt  # the TTNN stage's transfers and frees are its subject
def test_bookkeeping_ops_are_hidden_by_default_and_not_counted_per_module(zoo_bringup):
    """Issue 44, item 6: transfers, layouts and frees made every other TTNN line, and a module's TTNN count."""
    from ttbench.analysis.op_kinds import is_bookkeeping
    from ttbench.render.bringup_html import _module_tree

    b = zoo_bringup("mlp", "export", "args", True)
    ttnn = b.stages["ttnn"]
    moving = [op for op in ttnn.ops if is_bookkeeping(op.name)]
    assert {"ttnn.deallocate", "ttnn.to_layout"} <= {op.name for op in moving}
    modules, _, per_module = _module_tree(b)
    counted = per_module[modules.index("")]["ttnn"]
    assert counted == len([op for op in ttnn.ops if op.module is not None and not is_bookkeeping(op.name)])
    page = b._repr_html_()
    assert f"bookkeeping ops ({sum(is_bookkeeping(op.name) for s in b.stages.values() for op in s.ops)})" in page
    lines = re.findall(r"<span class='(op[^']*)'[^>]*><(?:a|span) class='ln'[^>]*>(\d+)<", page.split("stage-ttnn'><h3>", 1)[1])
    hidden = {int(i) for kind, i in lines if " bk" in kind}
    assert hidden and hidden <= {op.index for op in moving}


@pytest.mark.tt  # the TTNN stage's transfers and frees are its subject
def test_a_large_graph_opens_at_full_size_and_zooms_without_its_bookkeeping(zoo_bringup):
    from ttbench import optional
    from ttbench.analysis.op_kinds import is_bookkeeping

    if not optional.dot().available:
        pytest.skip(f"graphviz's dot: {optional.dot().hint}")
    stage = zoo_bringup("mlp", "export", "args", True).stages["ttnn"]
    small, everything = stage.graph(), stage.graph(bookkeeping=True)
    moving = sum(is_bookkeeping(op.name) for op in stage.ops)
    assert everything.total == len(stage.ops) and small.total == len(stage.ops) - moving
    assert "->" in small.dot  # users wired to what the hidden transfers carried
    assert everything.total > 100
    page = everything._repr_html_()
    assert "max-width:none" in page and ">+</button>" in page and "overflow:auto" in page
    assert "max-width:none" not in stage.graph(max_nodes=50)._repr_html_()  # a small one fits the cell


def test_a_comparison_lists_the_programs_own_ops_first_and_labels_what_runs_once_on_the_weights():
    from ttbench.core import Op
    from ttbench.records.comparison import OpMatch, StageComparison

    def row(index, func):
        op = Op(index, "ttnn.multiply", None, attrs={"func": func})
        return OpMatch(op, Op(index, "ttir.multiply", None), pcc=1.0, max_abs_error=0.0, layout="same", ok=True)

    # TTNN prints its const-eval functions before main: in execution order their rows came first, unlabelled
    comparison = StageComparison(model="m", reference_stage="ttir", stage="ttnn", min_pcc=0.99,
                                 rows=[row(3, "main_const_eval_0"), row(40, "main"), row(41, "main")])
    page = comparison._repr_html_()
    label = page.index("computed once from the weights (const-eval functions: 1 compared values)")
    assert page.index("<td>40</td>") < page.index("<td>41</td>") < label < page.index("<td>3</td>")


def test_the_constant_bars_stay_inside_their_axis_with_their_sizes_written(zoo_bringup):
    from ttbench.render.plots import stage_bars

    left = stage_bars(zoo_bringup("mlp")).axes[0]
    heights = [bar.get_height() for bar in left.patches]
    assert max(heights) > 0 and left.get_ylim()[1] > max(heights)  # the tallest bar ran past the top
    assert "19.0 KiB" in [t.get_text() for t in left.texts]
