"""IR diffs between bringups and export folders (issue 8)."""
import json
import os
import subprocess
import sys

import pytest
import torch

import ttbench as tb
from ttbench import optional
from ttbench.diff import diff_folders
from tests.paths import GOLDEN


TTBENCH = [sys.executable, "-m", "ttbench.cli"]


def ttbench(*args):
    return subprocess.run([*TTBENCH, *args], capture_output=True, text=True)


class Net(torch.nn.Module):
    def __init__(self, gelu_in_second_block=False):
        super().__init__()
        self.l1, self.l2 = torch.nn.Linear(16, 16), torch.nn.Linear(16, 16)
        self.a1 = torch.nn.ReLU()
        self.a2 = torch.nn.GELU() if gelu_in_second_block else torch.nn.ReLU()

    def forward(self, x):
        x = self.a1(self.l1(x))
        return self.a2(self.l2(x))  # SECOND_BLOCK


SECOND_BLOCK = f"test_diff.py:{next(i for i, l in enumerate(open(__file__), 1) if l.rstrip().endswith('# SECOND_BLOCK'))}"


def _net(gelu=False, **kw):
    torch.manual_seed(0)
    return tb.bringup(Net(gelu), (torch.randn(2, 16),), name="net", **kw)


@pytest.mark.subprocess  # a second process brings the model up
def test_same_model_in_two_processes_is_unchanged(tmp_path):
    for side in ("a", "b"):
        r = ttbench("bringup", "mlp", "--no-tt", "--out", str(tmp_path / side))
        assert r.returncode == 0, r.stderr
    r = ttbench("diff", str(tmp_path / "a"), str(tmp_path / "b"))
    assert r.returncode == 0, r.stdout
    assert "meaningful changes: none" in r.stdout


@pytest.mark.tt  # its assertions need the Tenstorrent compiler's stages
def test_one_layer_changed_is_named_at_its_line_and_nothing_else():
    d = tb.diff(_net(), _net(gelu=True))
    assert d.changed
    by_stage = {s.stage: s for s in d.stages}
    for stage, relu, gelu in [("fx", "aten.relu.default", "aten.gelu.default"),
                              ("torchfx", "torch.aten.relu", "torch.aten.gelu"),
                              ("stablehlo", "stablehlo.maximum", "stablehlo.multiply"),
                              ("ttir", "ttir.maximum", "ttir.multiply")]:
        changes = by_stage[stage].op_changes
        assert [c["line"] for c in changes] == [SECOND_BLOCK], (stage, changes)
        assert changes[0]["removed"] == {relu: 1} and gelu in changes[0]["added"], (stage, changes)
        assert not by_stage[stage].moved
    # Every stage, TTNN included: its layout aliases are numbered afresh per module (`#ttnn_layout3` on one side
    # is `#ttnn_layout2` on the other), which is not a change of the ops at the unchanged first block.
    for s in d.stages:
        assert {c["line"] for c in s.op_changes} <= {SECOND_BLOCK}, (s.stage, s.op_changes)
    assert f"at {SECOND_BLOCK}: aten.relu.default became aten.gelu.default" in d.text()


def test_params_args_vs_inline_reads_as_weights_moving_not_op_changes():
    d = tb.diff(_net(tt=False), _net(tt=False, params="inline"))
    assert d.setup == {"params": ("args", "inline")}
    for s in d.stages:
        assert not s.op_changes and not s.moved, (s.stage, s.op_changes[:3])
        assert s.budget["weights_inlined_bytes"] == (0, (16 * 16 + 16) * 2 * 4)
    assert "stablehlo: weights moved into the graph: 2,176 B" in d.text()


def test_numeric_changes_from_run_results(tmp_path):
    a = _net(tt=False)
    a.export(str(tmp_path / "a"), {"run.json": a.run().to_json()})
    b = _net(tt=False)
    worse = json.loads(b.run().to_json())
    worse["pcc"], worse["ok"] = 0.5, False
    b.export(str(tmp_path / "b"), {"run.json": json.dumps(worse)})
    d = diff_folders(str(tmp_path / "a"), str(tmp_path / "b"))
    assert d.changed and any("pcc 1.000000 -> 0.500000" in n for n in d.numeric)


@pytest.mark.skipif(not optional.tt_plugin().available, reason=optional.TT_HINT)
def test_compile_only_op_regressions_from_op_by_op_results(tmp_path):
    """Op by op through the TT compiler without a chip has no PCC: an op that stops earlier is the regression."""
    a = _net(tt=False)
    report = json.loads(a.op_by_op(device="tt", progress=False).to_json())
    a.export(str(tmp_path / "a"), {"op_by_op.json": json.dumps(report)})
    broken = report["ops"][0]  # as the next compiler version might have it
    broken.update(furthest_stage="stablehlo", error="failed to legalize operation 'stablehlo.dot_general'")
    a.export(str(tmp_path / "b"), {"op_by_op.json": json.dumps(report)})
    d = diff_folders(str(tmp_path / "a"), str(tmp_path / "b"))
    assert d.numeric == [
        f"op {broken['op']} {', '.join(broken['inputs'])} ({', '.join(broken['locations'][:2])}): got to flatbuffer, "
        "now stops at stablehlo: failed to legalize operation 'stablehlo.dot_general'"]


@pytest.mark.subprocess  # the command line, as a user runs it
@pytest.mark.tt  # its assertions need the Tenstorrent compiler's stages
@pytest.mark.parametrize("model", ["mlp", "bert_tiny"])
def test_zoo_models_match_their_golden(tmp_path, model):
    """The CI recipe on our own zoo: a fresh bringup must not differ from the committed golden.
    After an intended change, refresh with `make golden` and commit the folders with it."""
    r = ttbench("bringup", model, "--run", "cpu", "--out", str(tmp_path / model))
    assert r.returncode == 0, r.stdout + r.stderr
    r = ttbench("diff", os.path.join(GOLDEN, model), str(tmp_path / model), "--html", str(tmp_path / "diff.html"))
    assert r.returncode == 0, "differs from tests/golden (run `make golden` if intended):\n" + r.stdout
    html = (tmp_path / "diff.html").read_text()
    assert "meaningful changes: none" in html and "<script" not in html


@pytest.mark.subprocess  # the command line, as a user runs it
def test_bad_inputs_exit_2_with_one_line(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "manifest.json").write_text("{not json")
    (tmp_path / "unparsable").mkdir()
    (tmp_path / "unparsable" / "manifest.json").write_text(json.dumps({"stages": {"torchfx": {"ok": True}}}))
    (tmp_path / "unparsable" / "torchfx.mlir").write_bytes(b"\xff\xfe not mlir at all")
    golden = os.path.join(GOLDEN, "mlp")
    cases = [
        ((str(tmp_path / "missing"), golden), "is not a folder"),
        ((str(tmp_path / "empty"), golden), "is not an export folder (no manifest.json)"),
        ((str(tmp_path / "broken"), golden), "manifest.json is not valid JSON"),
        ((golden, str(tmp_path / "unparsable")), "torchfx.mlir does not parse"),
        ((golden, golden, "--stage", "nope"), "no stage 'nope'"),
    ]
    for args, message in cases:
        r = ttbench("diff", *args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_changed_constants_read_as_a_list_of_shapes_and_values():
    """Issue 29, item 7: ReLU -> GELU in StableHLO was one paragraph of 17 `% = stablehlo.constant dense<...>`
    fragments; now a count per line, then one constant per line (shape and value), a few per side."""
    d = tb.diff(_net(tt=False), _net(gelu=True, tt=False))
    text = d.text()
    lines = text.splitlines()
    head = next(i for i, l in enumerate(lines) if l.startswith(f"  constants at {SECOND_BLOCK}: "))
    # (ReLU's 0 stays: the first block still uses it.) The 17 are small literals: the line says they are counted in
    # small_constants, and the stage's budget line moves that count, not `constants` (one count, one meaning).
    assert lines[head].endswith(": 0 changed, 0 removed, 17 added (17 of them small: counted in small_constants, "
                                "not in constants)"), lines[head]
    stablehlo = next(s for s in d.stages if s.stage == "stablehlo")
    assert "constants" not in stablehlo.budget and stablehlo.budget["small_constants"] == (2, 20), stablehlo.budget
    listed = lines[head + 1:head + 8]
    assert "    + 2x16xf32 = 0.5 (every element)" in listed  # GELU's 0.5 * x * (...)
    assert listed[-1] == "    + ... 11 more (--unified shows them)"
    assert "% =" not in text and "stablehlo.constant dense<" not in text


class Offsets(torch.nn.Module):
    def __init__(self, last):
        super().__init__()
        self.last = last

    def forward(self, x):
        return x + torch.tensor([1.0, 2.0, self.last])  # OFFSETS


def test_a_changed_literal_list_reads_as_one_change_with_its_largest_difference():
    """A constant printed as a list of values (dense<[...]>) is paired with its changed self at the same line and
    its largest change of an element is computed from the printed values."""
    x = (torch.randn(2, 3),)
    d = tb.diff(tb.bringup(Offsets(3.0), x, tt=False), tb.bringup(Offsets(4.5), x, tt=False))
    stablehlo = next(s for s in d.stages if s.stage == "stablehlo")
    changes = [c for entry in stablehlo.constants for c in entry["changed"]]
    assert [(c["shape"], c["max_abs_delta"]) for c in changes] == [("3xf32", 1.5)], (changes, d.text())
    assert "~ 3xf32: max |Δ| 1.5" in d.text(), d.text()


class Fill(torch.nn.Module):
    def __init__(self, value):
        super().__init__()
        self.value = value

    def forward(self, x):
        return x * torch.full((2, 3), self.value)


@pytest.mark.tt
def test_a_changed_fill_value_is_a_meaningful_change_in_ttnn(tmp_path):
    # tt-mlir makes the fill a `ttnn.full` (fill_value = ...): diff said "ttnn: unchanged", "meaningful changes:
    # none" (exit 0) while the program's output moved by 5.1
    if not optional.tt_plugin().available:
        pytest.skip(optional.TT_HINT)
    x = (torch.randn(2, 3),)
    tb.bringup(Fill(2.0), x, progress=False).export(str(tmp_path / "a"))
    tb.bringup(Fill(7.1), x, progress=False).export(str(tmp_path / "b"))
    done = ttbench("diff", str(tmp_path / "a"), str(tmp_path / "b"), "--stage", "ttnn")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "ttnn.full" in done.stdout and "7.1" in done.stdout and "meaningful changes: yes" in done.stdout, done.stdout
