"""Findings (issue 4): in-place ops with lineage, the constant budget, location coverage, verifier results."""
import pytest
import torch

import ttbench as tb
from ttbench.analysis import analyze

THIS_FILE = __file__


class InPlace(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 8)

    def forward(self, x):
        y = self.lin(x)
        y.relu_()  # LINE_RELU
        y.add_(1)  # LINE_ADD
        y[:, 0] = 0  # LINE_SETITEM
        return y * 2


def line_of(marker: str) -> int:
    with open(THIS_FILE) as f:
        return next(i for i, line in enumerate(f, 1) if line.rstrip().endswith("# " + marker))


INPLACE_LINES = {line_of("LINE_RELU"), line_of("LINE_ADD"), line_of("LINE_SETITEM")}


def _inplace_by_line(b, stage):
    found = b.findings.of("inplace", stage)
    assert all(f.location.file == THIS_FILE for f in found)
    return {f.location.line: f for f in found}


def test_dynamo_inplace_ops_found_at_their_lines_and_survive_into_torch_ir():
    b = tb.bringup(InPlace(), (torch.randn(4, 8),), frontend="dynamo", tt=False)
    fx = _inplace_by_line(b, "fx")
    assert set(fx) == INPLACE_LINES
    assert fx[line_of("LINE_RELU")].op == "Tensor.relu_"
    assert fx[line_of("LINE_SETITEM")].op == "_operator.setitem"
    # the case users hit: the mutation is still there after the import, and the IR does not verify
    for line, f in fx.items():
        assert f.details["lineage"]["torchfx"]["status"] == "still in-place", f
    assert fx[line_of("LINE_ADD")].details["lineage"]["torchfx"]["inplace_ops"] == ["torch.aten.add_.Tensor"]
    assert set(_inplace_by_line(b, "torchfx")) == INPLACE_LINES
    verifier = b.findings.of("verifier", "torchfx")
    assert verifier and verifier[0].op == "torch.aten.relu_" and verifier[0].location.line == line_of("LINE_RELU")
    assert b.findings.summary()["torchfx"]["verifier"] == "failed"
    assert not b.stages["stablehlo"].ok


def test_functionalized_dynamo_graph_shows_the_out_of_place_replacements():
    b = tb.bringup(InPlace(), (torch.randn(4, 8),), frontend="dynamo", tt=False, functionalize=True)
    assert b.stages["stablehlo"].ok, b.stages["stablehlo"].error
    fx = _inplace_by_line(b, "fx")
    assert set(fx) == INPLACE_LINES  # the source still mutates; the lineage says what became of it
    relu = fx[line_of("LINE_RELU")].details["lineage"]
    assert relu["torchfx"] == {"status": "functionalized", "ops": ["torch.aten.relu"], "became": ["torch.aten.relu"],
                               "inplace_ops": []}
    assert "stablehlo.maximum" in relu["stablehlo"]["ops"]
    assert "torch.aten.add.Scalar" in fx[line_of("LINE_ADD")].details["lineage"]["torchfx"]["ops"]
    setitem = fx[line_of("LINE_SETITEM")].details["lineage"]
    assert setitem["torchfx"]["status"] == "functionalized" and "torch.aten.where.self" in setitem["torchfx"]["ops"]
    assert "stablehlo.select" in setitem["stablehlo"]["ops"]
    assert not b.findings.of("inplace", "torchfx") and not b.findings.of("verifier")


class WithTable(torch.nn.Module):
    """Parameters, a plain tensor attribute (torch.export lifts it as a constant), and a mask built in forward."""

    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(256, 256)
        self.table = torch.randn(256, 256)

    def forward(self, x):
        mask = torch.triu(torch.ones(64, 256), diagonal=1)  # LINE_MASK
        return self.lin(x) @ self.table + mask


PARAM_BYTES = (256 * 256 + 256) * 4


@pytest.mark.parametrize("params", ["inline", "args"])
def test_constant_budget(params):
    b = tb.bringup(WithTable(), (torch.randn(64, 256),), params=params, tt=False)
    summary = b.findings.summary()
    for stage in ("fx", "torchfx", "stablehlo"):
        row = summary[stage]
        inlined = row["weights_inlined_bytes"]
        if params == "inline":
            assert abs(inlined - PARAM_BYTES) <= 0.01 * PARAM_BYTES, (stage, inlined)
            assert row["weights_inlined"] == pytest.approx(1.0, abs=0.01)
        else:
            assert inlined == 0 and row["weights_inlined"] == 0
        table = [f for f in b.findings.of("constant", stage) if f.details["name"] == "table"]
        assert len(table) == 1 and table[0].nbytes == 262_144 and table[0].details["role"] == "constant", stage
    mask = [f for f in b.findings.of("constant", "stablehlo")
            if f.location and f.location.line == line_of("LINE_MASK") and f.details["dtype"] == "f32"]
    assert mask and mask[0].details["splat"] and mask[0].nbytes == 64 * 256 * 4 and mask[0].details["embedded_bytes"] == 4
    mask_ops = {op.name for op in b.stages["stablehlo"].ops if op.location and op.location.line == line_of("LINE_MASK")}
    assert {"stablehlo.compare", "stablehlo.select"} <= mask_ops  # built by ops from splats, not stored
    fx_mask_ops = {op.name for op in b.stages["fx"].ops if op.location and op.location.line == line_of("LINE_MASK")}
    assert any("triu" in n or "where" in n or "ge" in n for n in fx_mask_ops), fx_mask_ops


def test_min_bytes_decides_what_is_listed():
    b = tb.bringup(WithTable(), (torch.randn(64, 256),), params="args", tt=False)
    few = analyze(b, min_bytes=100_000)
    assert {f.details["name"] for f in few.of("constant", "fx")} == {"table"}
    assert all(f.nbytes >= 100_000 for f in few.of("constant"))
    assert len(few.of("constant")) < len(b.findings.of("constant"))


def test_one_constant_count_per_stage_in_the_summary_the_findings_and_the_view():
    """The summary's `constants`, the findings listed and the view's count are one number, defined beside it;
    the small literals left out of it are counted in a column of their own, and non-weights are a subset."""
    import re

    b = tb.bringup(WithTable(), (torch.randn(64, 256),), params="inline", tt=False)
    summary, findings = b.findings.summary(), b.findings
    header = b._repr_html_().split("</table>")[0]
    view_rows = dict(re.findall(r"<a href='#[^']*stage-(\w+)'>.*?</td>(?:<td>.*?</td>){3}<td>.*?</td><td>(\d*)</td>", header))
    for stage in ("fx", "torchfx", "stablehlo"):
        row = summary[stage]
        listed = findings.of("constant", stage)
        assert row["constants"] == len(listed) > 0, stage
        assert row["non_weight_constants"] == sum(f.details["role"] not in ("parameter", "buffer") for f in listed)
        assert view_rows[stage] == str(len(listed)), (stage, view_rows)
    stablehlo = summary["stablehlo"]
    assert stablehlo["small_constants"] > 0  # the scalars torch-mlir writes: counted, not listed
    assert all(f.nbytes >= 1024 or f.details["role"] in ("parameter", "buffer") for f in findings.of("constant"))
    meanings = summary.meanings()
    assert "1.0 KiB (min_bytes)" in meanings["constants"] and "1.0 KiB (min_bytes)" in findings.kind_meanings()["constant"]
    assert "every inlined weight, and any other of at least 1.0 KiB" in header


def test_location_coverage_of_mobilenet_and_what_stripping_locations_does(zoo_bringup):
    from ttbench.stages.mlir_stage import mlir_stage, run_pipelines

    b = zoo_bringup("mobilenet_v2")
    summary = b.findings.summary()
    # Measured: fx/torchfx 100%, stablehlo 98.1% (24 broadcast_in_dim ops from torch-mlir's batch-norm
    # lowering carry no location). The floor leaves room for small lowering changes, not for a lost stage.
    for stage in ("fx", "torchfx", "stablehlo"):
        assert 0.95 <= summary[stage]["coverage"] <= 1.0, (stage, summary[stage])
    stripped = run_pipelines(b.stages["stablehlo"].module, [("builtin.module(strip-debuginfo)", "strip locations")])
    lost = tb.Bringup(model_name=b.model_name, frontend=b.frontend, params=b.params, stages=dict(b.stages))
    lost.stages["stablehlo"] = mlir_stage("stablehlo", stripped, 0.0)
    findings = analyze(lost)
    assert findings.summary()["stablehlo"]["coverage"] == 0.0
    lost_lines = [f for f in findings.of("location_lost", "stablehlo") if f.location]
    torchfx_lines = {op.location for op in b.stages["torchfx"].ops if op.location}
    assert {f.location for f in lost_lines} == torchfx_lines  # every source line of the model, each named
    assert all(f.location.file.endswith("modeling_mobilenet_v2.py") for f in lost_lines)
    assert findings.summary()["stablehlo"]["lines_lost"] == len(lost_lines)


@pytest.mark.parametrize("frontend", ["export", "dynamo"])
def test_bert_tiny_summary_is_stable_between_runs(frontend):
    m, x = tb.models.load("bert_tiny")
    first = tb.bringup(m, x, frontend=frontend, tt=False).findings
    m, x = tb.models.load("bert_tiny")
    second = tb.bringup(m, x, frontend=frontend, tt=False).findings
    assert first.summary().rows == second.summary().rows
    assert first.counts() == second.counts()
    assert [(f.kind, f.stage, f.op, f.nbytes) for f in first] == [(f.kind, f.stage, f.op, f.nbytes) for f in second]


def test_findings_serialise_to_json(zoo_bringup):
    import json

    data = json.loads(zoo_bringup("mlp", params="inline").findings.to_json())
    assert set(data) == {"summary", "counts", "findings"}
    assert all(f["kind"] in ("inplace", "constant", "location_lost", "verifier") for f in data["findings"])
    df = zoo_bringup("mlp", params="inline").findings.summary().to_dataframe()
    assert list(df.index) == ["fx", "torchfx", "stablehlo"] and "coverage" in df.columns


class LargeSplat(torch.nn.Module):
    def forward(self, x):
        return x + torch.zeros(1, 4, 199, 199)  # 619 KiB on the device, one element in the IR


def test_a_splat_leads_with_what_is_embedded_and_names_both_figures():
    from ttbench.fleet.sweep import _bytes_cell

    b = tb.bringup(LargeSplat(), (torch.randn(1, 4, 199, 199),), tt=False, params="inline")
    [splat] = [f for f in b.findings.of("constant", "stablehlo") if f.details["splat"]]
    assert "splat: 4 B in the IR, 618.8 KiB on the device" in splat.message, splat.message
    row = b.findings.summary()["stablehlo"]
    assert row["embedded_bytes"] < 64 and row["constant_bytes"] >= 4 * 199 * 199 * 4
    header = str(b.findings.summary()).splitlines()[0].split()
    assert header.index("embedded_bytes") < header.index("constant_bytes")  # what is embedded comes first
    assert _bytes_cell({"embedded_bytes": row["embedded_bytes"], "constant_bytes": row["constant_bytes"]}) \
        .endswith("/ 618.8 KiB")


@pytest.mark.tt  # its assertions need the Tenstorrent compiler's stages
def test_ttnn_location_coverage_is_counted_the_same_way_for_every_frontend():
    # The Tenstorrent compiler gives the transfers it adds for arguments the enclosing function's location: the
    # first op's line through export, the graph's name through ONNX (mlp: 77 % through ONNX, 100 % through export).
    model, inputs = tb.models.load("mlp")
    rows = {fe: tb.bringup(model, inputs, frontend=fe).findings.summary()["ttnn"] for fe in ("export", "onnx")}
    assert rows["onnx"]["coverage"] == rows["export"]["coverage"] == 1.0, rows
    onnx_torch = tb.bringup(model, inputs, frontend="onnx", tt=False).stages["torchfx"].text
    signature = next(line for line in onnx_torch.splitlines() if "func.func @main(" in line)
    assert 'loc("fc1.weight"(#loc' in signature  # the argument carries its first user's source line


def test_export_reports_the_inplace_ops_it_functionalized_and_points_to_dynamo():
    """Issue 29, item 3: with the default export frontend the fx stage showed 0 in-place ops for code using relu_()
    and add_, with nothing saying torch.export rewrote them or that the dynamo frontend keeps them."""
    b = tb.bringup(InPlace(), (torch.randn(2, 8),), frontend="export", tt=False)
    found = b.findings.of("inplace", "fx")
    by_line = {f.location.line: f for f in found if f.location}
    relu, add = by_line[line_of("LINE_RELU")], by_line[line_of("LINE_ADD")]
    assert relu.op == "aten.relu_.default" and add.op == "aten.add_.Tensor"
    for f in (relu, add):
        assert "functionalized by torch.export" in f.message and "frontend='dynamo'" in f.message
        assert f.details["lineage"]["fx"]["status"] == "functionalized"
        assert f.details["lineage"]["stablehlo"]["status"] == "functionalized"
        marked = b.stages["fx"].ops[f.details["index"]]  # the op it became, which the view marks
        assert marked.location == f.location and not marked.name.split(".")[1].endswith("_")
    assert b.findings.summary()["fx"]["inplace"] == len(found) >= 3  # the count says what the code has


class Tied(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = torch.nn.Linear(64, 64), torch.nn.Linear(64, 64)
        self.b.weight = self.a.weight  # one tensor, two names: the exporter may use either

    def forward(self, x):
        return self.b(torch.relu(self.a(x)))


def test_a_tied_weight_exported_to_onnx_is_a_parameter_under_either_name():
    b = tb.bringup(Tied(), (torch.randn(2, 64),), frontend="onnx", params="inline", tt=False)
    roles = {f.details["name"]: f.details["role"] for f in b.findings.of("constant", "onnx")}
    assert set(roles.values()) == {"parameter"}, roles
    assert b.findings.summary()["onnx"]["non_weight_constants"] == 0


class FusedRelu(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 8)

    def forward(self, x):
        y = self.lin(x) * 3  # LINE_LIN
        y.relu_()  # LINE_FUSED
        return y + 1  # LINE_USER


@pytest.mark.tt
def test_a_fused_activation_is_said_fused_into_its_op_not_lost():
    """Issue 44, item 4: the relu_() line showed "ttnn 0" and a violet "location lost", while the TTNN program runs
    it fused into the add of the line after, as the activation of that add's first input."""
    b = tb.bringup(FusedRelu(), (torch.randn(4, 8),))
    assert b.ok, b.table()
    loc = next(op.location for op in b.stages["ttir"].ops if op.location and op.location.line == line_of("LINE_FUSED"))
    into = b.findings.fused["ttnn"][loc]
    assert into.kind == "relu" and str(into).startswith("fused into ttnn.add #")
    assert str(into).endswith("(as the activation relu of its first input)")
    assert all(line.endswith(f":{line_of('LINE_USER')}") for line in into.host_lines)
    assert "relu" in b.stages["ttnn"].ops[into.hosts[0]].text
    assert not [f for f in b.findings.of("location_lost", "ttnn") if f.location == loc]
    [inplace] = [f for f in b.findings.of("inplace", "fx") if f.location == loc]
    assert f"ttnn: {into}" in inplace.message  # the in-place story goes on to the op it runs inside
    assert "functionalized into stablehlo.maximum" in inplace.message and "multiply" not in inplace.message
    page = b._repr_html_()
    assert "fused into ttnn." in page and f"fused: relu of {loc.short}" in page  # the line's cell, the host's badge
    from ttbench.render.model_explorer import stage_graph

    [host] = [n for n in stage_graph(b.stages["ttnn"], b.findings)["graphs"][0]["nodes"] if n["id"] == str(into.hosts[0])]
    assert {"key": "fused activation", "value": f"relu of {loc.short}"} in host["attrs"]

