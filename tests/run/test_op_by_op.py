"""Op by op everywhere (issue 16): ONNX node by node, and through the Tenstorrent compiler without a chip."""
import json
import subprocess
import sys

import numpy as np
import onnx
import pytest
import torch
from onnx import TensorProto, helper

import ttbench as tb
from ttbench import optional
from ttbench.core import BadInput

from tests import op_by_op_rows

pytestmark = pytest.mark.tt  # op by op through the TT compiler is the subject

needs_tt = pytest.mark.skipif(not optional.tt_plugin().available, reason=optional.TT_HINT)


def _relu_to_minimum(text: str) -> str:
    # relu lowers to stablehlo.maximum(x, 0); minimum(x, 0) keeps shapes and types but computes the opposite
    assert "stablehlo.maximum" in text
    return text.replace("stablehlo.maximum", "stablehlo.minimum", 1)


def test_onnx_op_by_op_of_mlp_runs_every_node_against_onnxruntime(zoo_bringup):
    b = zoo_bringup("mlp", "onnx")
    report = b.op_by_op(progress=False)
    assert report.ok, [(r.op, r.error) for r in report.failed()]
    assert report.frontend == "onnx" and report.device == "cpu"
    assert all(r.op.startswith("onnx.") and r.furthest_stage == "executed" and r.pcc >= 0.99 for r in report.rows)
    assert report.total_ops == sum(r.count for r in report.rows) == len(
        [n for n in b.stages["onnx"].module.graph.node if n.op_type != "Constant"])
    relu = [r for r in report.rows if r.op == "onnx.Relu"]
    assert len(relu) == 1 and relu[0].locations == ["loader.py:15"]  # the PyTorch line the exporter recorded
    data = json.loads(report.to_json())
    assert data["frontend"] == "onnx" and data["unique_ops"] == len(report.rows)


def test_onnx_op_by_op_chained_names_the_perturbed_node(zoo_bringup):
    b = zoo_bringup("mlp", "onnx")

    def perturb_relu(text, op, node):
        return _relu_to_minimum(text) if op == "onnx.Relu" else text

    report = b.op_by_op(mode="chained", transform=perturb_relu, progress=False)
    first = report.first_divergence
    assert first is not None and first.op == "onnx.Relu" and first.locations == ["loader.py:15"]
    assert all(r.ok for r in report.rows[:first.index])
    # downstream nodes were fed the device's (wrong) values, and are measured against their own golden
    assert any(r.pcc is not None and r.pcc < 0.99 for r in report.rows[first.index + 1:])


def test_onnx_op_by_op_of_mobilenet_v2_dedups_nodes(zoo_bringup):
    b = zoo_bringup("mobilenet_v2", "onnx")
    report = b.op_by_op(progress=False)
    assert report.ok, [(r.op, r.error) for r in report.failed()][:5]
    assert len(report.rows) < report.total_ops  # 17 inverted residual blocks repeat their convolutions
    conv = [r for r in report.rows if r.op == "onnx.Conv"]
    assert conv and any(r.count > 1 for r in conv)
    assert any("modeling_mobilenet_v2.py" in loc for r in conv for loc in r.locations)


def _det_model(path):
    """x @ W -> Det -> * 2: torch-mlir has no lowering for Det (aten.linalg_det), onnxruntime computes it."""
    w = helper.make_tensor("W", TensorProto.FLOAT, [3, 3], np.eye(3, dtype=np.float32).flatten() * 2)
    two = helper.make_tensor("two", TensorProto.FLOAT, [], [2.0])
    nodes = [helper.make_node("MatMul", ["x", "W"], ["xw"], name="matmul"),
             helper.make_node("Det", ["xw"], ["d"], name="det"),
             helper.make_node("Mul", ["d", "two"], ["y"], name="scale")]
    graph = helper.make_graph(nodes, "det", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 3])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [])], [w, two])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


def test_onnx_file_op_by_op_keeps_going_past_a_node_that_cannot_lower(tmp_path):
    path = _det_model(str(tmp_path / "det.onnx"))
    x = np.array([[1, 2, 0], [0, 1, 3], [4, 0, 1]], dtype=np.float32)
    b = tb.bringup(path, {"x": x}, tt=False)
    assert not b.stages["stablehlo"].ok  # the whole graph does not lower ...
    report = b.op_by_op(progress=False)  # ... and op by op says which node
    rows = {r.nodes[0]: r for r in report.rows}
    assert list(rows) == ["matmul", "det", "scale"]
    assert not rows["det"].ok and rows["det"].furthest_stage == "torchfx" and "det" in rows["det"].error
    assert rows["matmul"].ok and rows["scale"].ok  # the run went on; Mul ran on onnxruntime's value of Det
    assert rows["scale"].pcc >= 0.99


def test_onnx_op_by_op_from_the_cli(tmp_path):
    path = _det_model(str(tmp_path / "det.onnx"))
    np.savez(tmp_path / "x.npz", x=np.eye(3, dtype=np.float32))
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "-m", "ttbench.cli", "bringup", path, "--inputs", str(tmp_path / "x.npz"),
                        "--no-tt", "--run", "cpu", "--op-by-op", "--out", str(out)], capture_output=True, text=True)
    assert r.returncode == 1, r.stdout + r.stderr  # a node fails
    assert "3 unique ops of 3, 2 pass, 1 fail" in r.stdout and "#1 onnx.Det" in r.stdout
    report = json.loads((out / "op_by_op.json").read_text())
    assert [o["op"] for o in report["ops"]] == ["onnx.MatMul", "onnx.Det", "onnx.Mul"]


class LocalResponseNorm(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(4, 4, 3)

    def forward(self, x):
        y = torch.relu(self.conv(x))
        return torch.nn.functional.local_response_norm(y, 3) + 1  # AlexNet's LRN: an avg_pool3d inside


@needs_tt
def test_tt_op_by_op_compiles_every_mlp_op_to_a_flatbuffer(zoo_bringup):
    for frontend in ("export", "onnx"):
        report = zoo_bringup("mlp", frontend).op_by_op(device="tt", progress=False)
        assert report.ok and report.compile_only, [(r.op, r.error) for r in report.failed()]
        # Compile-only: no device PCC (never one of zeros); each unit's TTNN interpreted, and said to be
        assert all(r.furthest_stage == "flatbuffer" and r.pcc_from and "interpreter" in r.pcc_from
                   and r.pcc >= 0.999 for r in report.rows)
        assert "compile-only" in report.summary() and "not the chip" in report.summary()
        figure = report.plot()
        assert figure.axes[0].get_ylabel() == "1 - PCC vs the golden (log)" and figure.axes[0].get_yscale() == "log"
        assert "interpreted on the CPU" in figure.axes[0].get_title()


@needs_tt
@pytest.mark.parametrize("frontend", ["export", "onnx"])
def test_tt_names_the_op_it_refuses_and_its_source_line(frontend):
    b = tb.bringup(LocalResponseNorm(), torch.randn(1, 4, 8, 8), frontend=frontend)
    line = f"test_op_by_op.py:{LocalResponseNorm.forward.__code__.co_firstlineno + 2}"
    if frontend == "export":  # the whole-graph compile fails, and says where
        assert not b.stages["ttir"].ok and b.stages["ttir"].error.startswith(f"ttir: stopped at {line} (")
    report = b.op_by_op(device="tt", progress=False)
    failed = report.failed()
    assert failed and all(line in r.locations for r in failed)
    assert all(r.ok for r in report.rows if r not in failed)  # the run went on past it
    if frontend == "export":
        assert [r.op for r in failed] == ["aten.avg_pool3d.default"]
        assert failed[0].furthest_stage == "stablehlo" and "reduce_window" in failed[0].error
        first = b.first_failing_op("ttnn", progress=False)
        assert first.op == "aten.avg_pool3d.default" and first.locations == [line]


def test_op_by_op_requests_that_cannot_work_are_one_line_errors(zoo_bringup):
    b = zoo_bringup("mlp")
    with pytest.raises(BadInput, match="runs each op to its stablehlo stage"):
        b.op_by_op(stage="ttnn")
    if not any(d.name == "tt" and d.usable for d in tb.devices()):
        with pytest.raises(BadInput, match="tt is compile-only here"):
            b.op_by_op(device="tt", mode="chained")


class MaxPool(torch.nn.Module):
    def __init__(self, read_indices):
        super().__init__()
        self.read_indices = read_indices

    def forward(self, x):
        y, indices = torch.nn.functional.max_pool2d(x, 2, return_indices=True)
        return torch.nn.functional.max_unpool2d(y, indices, 2) if self.read_indices else y + 1


@needs_tt
def test_an_op_is_compiled_with_only_the_results_the_model_reads():
    x = torch.randn(1, 2, 8, 8)
    # resnet's max pool: the graph reads the values, not the indices, and the TT compiler takes that
    unread = tb.bringup(MaxPool(read_indices=False), x, tt=False).op_by_op(device="tt", progress=False)
    pool = next(r for r in unread.rows if r.op == "aten.max_pool2d_with_indices.default")
    assert pool.ok and pool.furthest_stage == "flatbuffer"
    # ENet's: the indices feed max_unpool2d, so the op is compiled with both results (and torch-mlir fails it)
    read = tb.bringup(MaxPool(read_indices=True), x, tt=False).op_by_op(progress=False)
    pool = next(r for r in read.rows if r.op == "aten.max_pool2d_with_indices.default")
    assert not pool.ok and "xi64>" in pool.error


def test_a_node_on_onnx_sequences_is_a_row_not_a_stacked_tensor(tmp_path):
    """SequenceConstruct's output is a list of tensors: it must not be stacked into one tensor and fed on."""
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"),
             helper.make_node("SequenceConstruct", ["r", "x"], ["seq"], name="make_seq"),
             helper.make_node("ConcatFromSequence", ["seq"], ["cat"], name="concat", axis=0),
             helper.make_node("Neg", ["cat"], ["y"], name="neg")]
    graph = helper.make_graph(nodes, "seq", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 3])])
    path = str(tmp_path / "seq.onnx")
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    b = tb.bringup(path, [np.ones((2, 3), np.float32)], tt=False)
    rows = {r.nodes[0]: r for r in b.op_by_op(progress=False).rows}
    assert rows["relu"].ok and rows["neg"].ok
    for name in ("make_seq", "concat"):
        assert not rows[name].ok and "'seq' is an ONNX sequence, not a tensor" in rows[name].error


@needs_tt
def test_a_tt_compiler_crash_is_one_ops_row_and_the_next_op_gets_a_fresh_plugin(zoo_bringup, monkeypatch):
    monkeypatch.setenv("TTBENCH_TT_WORKER_FAULT", "abort:stablehlo.maximum")  # mlp's relu, as a fatal plugin error
    report = zoo_bringup("mlp").op_by_op(device="tt", progress=False)
    relu = [r for r in report.rows if r.op == "aten.relu.default"]
    assert len(relu) == 1 and not relu[0].ok and "crashed" in relu[0].error and "SIGABRT" in relu[0].error
    after = report.rows[relu[0].index + 1:]
    assert after and all(r.ok and r.furthest_stage == "flatbuffer" for r in after)
    monkeypatch.delenv("TTBENCH_TT_WORKER_FAULT")
    assert report.rerun(relu[0].index).furthest_stage == "flatbuffer"  # after a fix: one call, a fresh session


class FillsAnEmptyBuffer(torch.nn.Module):
    def forward(self, x):
        y = torch.empty(x.shape[0], 3)
        y[:, 0] = x.sum(1)
        return y[:, :1] + 1


def test_an_op_with_uninitialized_output_is_skipped_not_called_a_compiler_failure():
    b = tb.bringup(FillsAnEmptyBuffer(), torch.randn(2, 4), tt=False)
    for mode in ("isolated", "chained"):
        report = b.op_by_op(mode=mode, progress=False)
        assert report.ok and "aten.empty.memory_format" not in [r.op for r in report.rows]
        assert report.skipped == {"aten.empty.memory_format": 1}
        assert "not run alone (no tensor result, or uninitialized memory): aten.empty.memory_format x1" in \
            report.summary()


def test_first_failing_op_says_when_every_op_gets_through(zoo_bringup):
    """Issue 29, item 8: it returned a bare None, which a notebook cell shows as nothing at all."""
    b = zoo_bringup("mlp")
    none = b.first_failing_op("stablehlo", progress=False)
    assert not none  # `if b.first_failing_op(): ...` still reads as before
    assert repr(none) == f"no failing op: each of the {none.unique_ops} unique ops gets through stablehlo on its own " \
                         f"(cpu)" and none.unique_ops == len(b.op_by_op(progress=False).rows) > 3


@pytest.mark.parametrize("model,frontend", op_by_op_rows.CASES, ids=[f"{m}-{f}" for m, f in op_by_op_rows.CASES])
def test_op_by_op_rows_are_as_recorded(model, frontend):
    """The rows a user reads (units, occurrences, lines, verdicts, PCCs) are those recorded before op by op was
    made fast (one unit per compile, lowered in a pass worker of its own): batching and in-process lowering
    changed the speed only."""
    with open(op_by_op_rows.path_of(model, frontend)) as f:
        recorded = json.load(f)
    rows = op_by_op_rows.rows_of(model, frontend)
    assert [{k: v for k, v in r.items() if k != "pcc"} for r in rows] == \
        [{k: v for k, v in r.items() if k != "pcc"} for r in recorded]
    assert [r["pcc"] for r in rows] == pytest.approx([r["pcc"] for r in recorded], abs=2e-6)


def test_a_batch_that_does_not_compile_gives_each_unit_its_own_verdict(zoo_bringup):
    """One unit edited so that its program is refused: the batch it is in cannot compile, every other unit of that
    batch still runs (alone) and passes, and the edited one fails with the compiler's own message."""
    b = zoo_bringup("bert_tiny", "export")

    def break_gelu(text, op, node):
        if op != "aten.gelu.default":
            return text
        assert "stablehlo.multiply" in text
        return text.replace("stablehlo.multiply", "stablehlo.bogus_multiply", 1)  # no such op

    report = b.op_by_op(progress=False, transform=break_gelu)
    broken = [r for r in report.rows if r.op == "aten.gelu.default"]
    assert broken and all(not r.ok and r.furthest_stage == "stablehlo" and "serialize" in r.error
                          for r in broken), [(r.op, r.error) for r in broken]  # the module did not parse
    others = [r for r in report.rows if r.op != "aten.gelu.default"]
    assert others and all(r.ok and r.furthest_stage == "executed" for r in others), \
        [(r.op, r.error) for r in others if not r.ok]
