"""ONNX files as users have them (issue 15): old opsets, no value_info, weights listed as graph inputs, quoted
graph names. Built here with onnx's own helpers (nothing committed), brought up and run against the golden."""
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
