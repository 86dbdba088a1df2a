"""ONNX files as users have them (issue 15): old opsets, no value_info, weights listed as graph inputs, quoted
graph names. Built here with onnx's own helpers (nothing committed), brought up and run against the golden."""
import subprocess
import sys

import numpy as np
import onnx
import pytest
import torch
from onnx import TensorProto, helper, numpy_helper

import ttbench as tb


def _legacy_file(path, nodes, weights, graph_inputs, output_shape):
    """Opset 9, IR version 3, no value_info, every weight also listed among the graph inputs (in the given
    order), and a graph name the old exporter would write."""
    inputs = [helper.make_tensor_value_info(name, TensorProto.FLOAT, shape) for name, shape in graph_inputs]
    graph = helper.make_graph(nodes, 'torch-jit-export "legacy"', inputs,
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, output_shape)],
                              initializer=[numpy_helper.from_array(a, n) for n, a in weights.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 9)])
    model.ir_version = 3
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return str(path)


@pytest.fixture
def mlp_file(tmp_path):
    rng = np.random.default_rng(0)
    weights = {"w1": rng.standard_normal((8, 16)).astype(np.float32), "b1": rng.standard_normal(8).astype(np.float32),
               "w2": rng.standard_normal((4, 8)).astype(np.float32), "b2": rng.standard_normal(4).astype(np.float32)}
    nodes = [helper.make_node("Gemm", ["x", "w1", "b1"], ["h"], transB=1), helper.make_node("Relu", ["h"], ["r"]),
             helper.make_node("Gemm", ["r", "w2", "b2"], ["y"], transB=1)]
    order = [("w1", (8, 16)), ("b1", (8,)), ("x", (2, 16)), ("w2", (4, 8)), ("b2", (4,))]
    return _legacy_file(tmp_path / "legacy.onnx", nodes, weights, order, [2, 4])


@pytest.mark.parametrize("params", ["args", "inline"])
def test_a_legacy_file_reaches_stablehlo_and_matches_the_golden(mlp_file, params):
    b = tb.bringup(mlp_file, tt=False, params=params)
    assert b.frontend == "onnx" and b.stages["stablehlo"].ok, b.table()
    prepared = b.stages["onnx"].meta["prepared"]
    assert any("opset 9 -> 17" in line for line in prepared), prepared
    assert any("listed as graph inputs" in line for line in prepared), prepared
    assert "func.func @main(" in b.stages["torchfx"].text
    result = b.run()
    assert result.ok and result.pcc > 0.9999, result
    assert result.golden.startswith("onnxruntime "), result.golden  # the reference users trust, named
    import onnxruntime

    expected = onnxruntime.InferenceSession(mlp_file).run(None, {"x": b.example_inputs[0].numpy()})[0]
    np.testing.assert_allclose(result.golden_arrays[0], expected, rtol=1e-6)
    np.testing.assert_allclose(result.arrays[0], expected, rtol=1e-4, atol=1e-4)


def test_arguments_follow_the_imported_signature_not_the_file_order(tmp_path):
    # Two weights of one shape: fed by position they would be swapped, and the answer would be silently wrong.
    rng = np.random.default_rng(1)
    weights = {"scale": rng.standard_normal((2, 16)).astype(np.float32),
               "shift": (rng.standard_normal((2, 16)) * 10).astype(np.float32)}
    nodes = [helper.make_node("Mul", ["x", "scale"], ["m"]), helper.make_node("Add", ["m", "shift"], ["y"])]
    path = _legacy_file(tmp_path / "swap.onnx", nodes, weights, [("shift", (2, 16)), ("x", (2, 16)),
                                                                 ("scale", (2, 16))], [2, 16])
    b = tb.bringup(path, tt=False)
    result = b.run()
    assert result.ok and result.pcc > 0.9999, result


def test_buffers_that_do_not_fit_the_signature_are_not_run(mlp_file):
    b = tb.bringup(mlp_file, tt=False)
    b.argument_values[1] = torch.zeros(3)
    result = b.run()
    assert not result.ok and not result.outputs
    assert f"argument 1 ({b.arguments[1].name}) is 3 f32" in result.message, result.message


def _dynamic_file(path, elem=TensorProto.FLOAT, op="Relu"):
    """x: [batch, 4] (a named dynamic dimension), y = op(x) + x-shaped weights, opset 17, value_info-free."""
    x = helper.make_tensor_value_info("x", elem, ["batch", 4])
    y = helper.make_tensor_value_info("y", elem, ["batch", 4])
    model = helper.make_model(helper.make_graph([helper.make_node(op, ["x", "x"] if op == "Max" else ["x"], ["y"])],
                                                "dyn", [x], [y]), opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(model, str(path))
    return str(path)


def test_inputs_as_numpy_or_by_name_and_dynamic_dims(tmp_path):
    path = _dynamic_file(tmp_path / "dyn.onnx")
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    for given in (x, [x], {"x": x}, torch.from_numpy(x)):
        b = tb.bringup(path, given, tt=False)
        assert b.ok, b.table()
        result = b.run()
        assert result.ok and np.array_equal(result.arrays[0], np.maximum(x, 0)), result
    b = tb.bringup(path, tt=False, dims={"batch": 5})
    assert tuple(b.example_inputs[0].shape) == (5, 4)
    assert any("batch=5" in line for line in b.stages["onnx"].meta["prepared"])
    assert "tensor<5x4xf32>" in b.stages["stablehlo"].text  # compiled for the shape it runs with
    assert b.run().ok


@pytest.mark.parametrize("given, dims, message", [
    (np.ones((3, 4), np.float64), None, "'x' is float32, the value given is float64"),
    (np.ones((3, 5), np.float32), None, "'x' has shape batchx4, the value given is 3x5"),
    ({"y": np.ones((3, 4), np.float32)}, None, "not inputs: y; missing: x"),
    ((), None, "'x' has dynamic dimensions (batch)"),
    ((), {"seq": 2}, "no input dimension is named 'seq'"),
    ((), {"batch": 0}, "must be a positive integer"),
    (["text"], None, "was given a str"),
])
def test_inputs_that_do_not_fit_are_refused_naming_the_input(tmp_path, given, dims, message):
    with pytest.raises(tb.BadInput) as err:
        tb.bringup(_dynamic_file(tmp_path / "dyn.onnx"), given, tt=False, dims=dims)
    assert message in str(err.value)


def test_the_golden_falls_back_to_the_reference_evaluator_and_says_so(tmp_path):
    # onnxruntime has no int16 Max kernel; onnx.reference computes it.
    path = _dynamic_file(tmp_path / "max.onnx", TensorProto.INT16, "Max")
    x = np.arange(-6, 6, dtype=np.int16).reshape(3, 4)
    result = tb.bringup(path, x, tt=False).run()
    assert result.golden.startswith("onnx.reference (onnxruntime refused the model"), result.golden
    assert "Max" in result.golden
    assert np.array_equal(result.golden_arrays[0], x)


def test_cli_inputs_dims_and_saved_outputs(tmp_path, capsys):
    from onnx import numpy_helper as nh

    from ttbench.cli import main

    path = _dynamic_file(tmp_path / "dyn.onnx")
    x = np.linspace(-2, 2, 8, dtype=np.float32).reshape(2, 4)
    np.savez(tmp_path / "by_name.npz", x=x)
    np.savez(tmp_path / "in_order.npz", x)
    (tmp_path / "test_data_set_0").mkdir()
    (tmp_path / "test_data_set_0" / "input_0.pb").write_bytes(nh.from_array(x, "x").SerializeToString())
    for source in ("by_name.npz", "in_order.npz", "test_data_set_0"):
        out = tmp_path / f"outputs-{source}.npz"
        assert main(["bringup", path, "--no-tt", "--inputs", str(tmp_path / source), "--run", "cpu",
                     "--save-outputs", str(out)]) == 0
        with np.load(out) as saved:
            assert sorted(saved.files) == ["golden_0", "output_0"]
            assert np.array_equal(saved["output_0"], np.maximum(x, 0))
            assert np.array_equal(saved["golden_0"], np.maximum(x, 0))
    assert "against onnxruntime" in capsys.readouterr().out
    assert main(["bringup", path, "--no-tt", "--dim", "batch=3", "--run", "cpu"]) == 0
    # bad input: exit 2, one line, nothing written
    (tmp_path / "test_data_set_1").mkdir()
    (tmp_path / "test_data_set_1" / "input_0.pb").symlink_to("/etc/passwd")
    for argv, message in ([["--inputs", str(tmp_path / "test_data_set_1")], "is a symlink"],
                          [["--dim", "batch"], "must be NAME=VALUE"],
                          [["--inputs", str(tmp_path / "in_order.npz"), "--input-shape", "2x4"], "not both"],
                          [["--save-outputs", str(tmp_path / "o.npz")], "needs --run"],
                          [["--inputs", str(tmp_path / "nothing.npz")], "no such file or folder"]):
        capsys.readouterr()
        assert main(["bringup", path, "--no-tt", *argv]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err
    assert not (tmp_path / "o.npz").exists()


def test_an_onnx_bringup_prints_no_exporter_noise(capfd, caplog):
    """The exporter logged "torchvision is not installed. Skipping torchvision::nms" and three more on every
    export, and its optimizer "Evaluation failed: cannot reshape ..." for each constant it left unfolded (bert)
    (issue 29, item 5): noise under every ONNX cell."""
    import logging

    loggers = [logging.getLogger(n) for n in ("torch.onnx._internal.exporter._registration",
                                              "onnxscript.optimizer._constant_folding")]
    filters = [list(logger.filters) for logger in loggers]
    with caplog.at_level(logging.WARNING):
        b = tb.bringup(*tb.models.load("bert_tiny"), frontend="onnx", tt=False)
    assert b.stages["onnx"].ok
    err = capfd.readouterr().err
    for noise in ("torchvision", "Evaluation failed"):
        assert noise not in err and noise not in caplog.text
    assert [list(logger.filters) for logger in loggers] == filters  # only for the export: loggers left as they were


@pytest.mark.subprocess  # the command line, as a user runs it
def test_an_onnx_file_past_the_node_limit_is_refused_before_any_work_with_its_cost(tmp_path, monkeypatch):
    # a 1e6-node file ran into the 900 s pass deadline with no word before
    from onnx import TensorProto, helper

    nodes = [helper.make_node("Neg", [f"v{i}"], [f"v{i + 1}"]) for i in range(1500)]
    graph = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("v0", TensorProto.FLOAT, [2])],
                              [helper.make_tensor_value_info("v1500", TensorProto.FLOAT, [2])])
    path = tmp_path / "chain.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    monkeypatch.setenv("TTBENCH_MAX_ONNX_NODES", "1000")
    done = subprocess.run([sys.executable, "-m", "ttbench.cli", "bringup", str(path), "--no-tt"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and done.stderr.strip().splitlines() == [
        f"ttbench: error: {path} has 1,500 nodes, past the 1,000 ttbench takes (at least 0 min to StableHLO "
        "alone, at the rate of element-wise nodes here): cut the graph, or set TTBENCH_MAX_ONNX_NODES=1500 to go "
        "on anyway"], done.stderr
    monkeypatch.setenv("TTBENCH_MAX_ONNX_NODES", "1500")
    assert tb.bringup(str(path), tt=False, progress=False).ok
