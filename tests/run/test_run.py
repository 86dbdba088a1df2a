"""Running stages on the CPU PJRT device against PyTorch, whole graph and op by op (issue 6)."""
import json
import re

import numpy as np
import pytest
import torch

import ttbench as tb
from ttbench.core import BadInput, Stage
from ttbench.proc.client import close_shared
from ttbench.fleet.sweep import known_failures

# Frontend/model pairs that do not reach stablehlo: the one list in models/known_failures.json. The test fails
# when one starts passing, so the list stays true.
KNOWN = known_failures()


@pytest.mark.parametrize("params", ["args", "inline"])
@pytest.mark.parametrize("frontend", ["export", "dynamo", "onnx"])
@pytest.mark.parametrize("model", ["mlp", "bert_tiny", pytest.param("mobilenet_v2", marks=pytest.mark.slow)])
def test_zoo_stablehlo_matches_pytorch_on_cpu(model, frontend, params):
    m, x = tb.models.load(model)
    b = tb.bringup(m, x, frontend=frontend, params=params, tt=False)
    if f"{model}/{frontend}" in KNOWN:
        assert not b.stages["stablehlo"].ok, f"{model}/{frontend} passes now: remove it from known_failures.json"
        return
    result = b.run("stablehlo", device="cpu", pcc=0.999)
    assert result.executed and result.ok, result
    assert result.pcc >= 0.999 and all(o["allclose"] for o in result.outputs)
    assert result.compile_seconds > 0 and result.run_seconds > 0
    assert len(result.outputs) == (2 if model != "mlp" else 1)  # HF models: last_hidden_state, pooler_output


def test_fx_stage_runs_in_pytorch(zoo_bringup):
    result = zoo_bringup("bert_tiny").run("fx")
    assert result.ok and result.device == "torch-cpu" and result.pcc > 0.999999


def _perturbed(b, text_edit):
    """A copy of `b` whose stablehlo stage computes something else: a deliberately wrong lowering."""
    full = text_edit(b.stages["stablehlo"].full_text())
    stages = dict(b.stages)
    stages["stablehlo"] = Stage(name="stablehlo", ok=True, text=full, _full_text=lambda: full)
    return tb.Bringup(model_name=b.model_name, frontend=b.frontend, params=b.params, stages=stages,
                      arguments=b.arguments, argument_values=b.argument_values, example_inputs=b.example_inputs,
                      model=b.model, fx_graph=b.fx_graph)


def _relu_to_minimum(text: str) -> str:
    # relu lowers to stablehlo.maximum(x, 0); minimum(x, 0) keeps shapes and types but computes the opposite
    assert "stablehlo.maximum" in text
    return text.replace("stablehlo.maximum", "stablehlo.minimum", 1)


def test_a_wrong_lowering_fails_the_whole_graph_comparison(zoo_bringup):
    b = zoo_bringup("mlp")
    assert b.run().ok
    wrong = _perturbed(b, _relu_to_minimum).run()
    assert wrong.executed and not wrong.ok and wrong.pcc < 0.99
    assert "differ" in wrong.message


def test_chained_op_by_op_names_the_perturbed_op_first(zoo_bringup):
    b = zoo_bringup("mlp")

    def perturb_relu(text, op, node):
        return _relu_to_minimum(text) if op == "aten.relu.default" else text

    report = b.op_by_op(mode="chained", transform=perturb_relu, progress=False)
    assert report.first_divergence is not None
    assert report.first_divergence.op == "aten.relu.default"
    assert report.first_divergence.locations == ["loader.py:15"]
    before = report.rows[:report.first_divergence.index]
    assert before and all(r.ok for r in before)  # everything upstream of it still matches
    # the one-call re-run of that op (without the perturbation this time, as after a fix)
    report._rerun.__self__.transform = None
    assert report.rerun(report.first_divergence.index).ok


def test_isolated_op_by_op_dedups_and_records_sources(zoo_bringup):
    b = zoo_bringup("bert_tiny")
    report = b.op_by_op(progress=False)
    assert report.ok, [(r.op, r.error) for r in report.failed()]
    assert report.total_ops == sum(r.count for r in report.rows) and len(report.rows) < report.total_ops
    assert all(r.furthest_stage == "executed" and r.pcc >= 0.99 for r in report.rows)
    linear = [r for r in report.rows if r.op == "aten.mm.default" or r.op == "aten.addmm.default"]
    assert linear and any("modeling_bert.py" in loc for r in linear for loc in r.locations)
    data = json.loads(report.to_json())
    assert data["unique_ops"] == len(report.rows) and data["total_ops"] == report.total_ops
    df = report.to_dataframe()
    assert list(df["op"]) == [r.op for r in report.rows]
    assert "<script" not in report._repr_html_()
    figure = report.plot()
    assert len(figure.axes[0].collections[0].get_offsets()) == len(report.rows)


@pytest.mark.subprocess  # kills and hangs the worker child on purpose
@pytest.mark.parametrize("fault", ["abort", "hang"])
def test_an_op_that_kills_or_hangs_its_worker_is_a_row_and_the_run_goes_on(zoo_bringup, monkeypatch, fault):
    b = zoo_bringup("mlp")
    close_shared()  # the fault is read by a fresh worker
    monkeypatch.setenv("TTBENCH_WORKER_FAULT", f"{fault}:aten.gelu.default")
    try:
        report = b.op_by_op(progress=False, timeout=5 if fault == "hang" else 30)
    finally:
        close_shared()
    gelu = [r for r in report.rows if r.op == "aten.gelu.default"]
    assert len(gelu) == 1 and not gelu[0].ok and gelu[0].furthest_stage == "fx"
    expected = "killed by SIGABRT" if fault == "abort" else "timed out after 5 s"
    assert expected in gelu[0].error
    after = report.rows[gelu[0].index + 1:]
    assert after and all(r.ok and r.furthest_stage == "executed" for r in after)


@pytest.mark.tt  # its assertions need the Tenstorrent compiler's stages
def test_tt_device_without_hardware_says_so_and_computes_nothing(zoo_bringup):
    b = zoo_bringup("mlp", tt=True)
    assert b.stages["ttnn"].ok
    result = b.run("ttnn", device="tt")
    assert not result.executed and not result.ok and result.pcc is None and result.outputs == []
    assert "compile-only: no Tenstorrent device to run on" in result.message
    tt = next(d for d in tb.devices() if d.name == "tt")
    assert not tt.usable and tt.compiles


@pytest.mark.parametrize("call, message", [
    (lambda b: b.run("torchfx"), "cannot run stage 'torchfx'"),
    (lambda b: b.run("stablehlo", device="gpu7"), "unknown device 'gpu7'"),
    (lambda b: b.run("ttnn", device="cpu"), "this export bringup has no 'ttnn' stage"),
    (lambda b: b.op_by_op(mode="sideways"), "unknown op-by-op mode 'sideways'"),
    (lambda b: b.op_by_op(device="cuda"), "device 'cuda' cannot run ops here"),
])
def test_bad_run_requests_are_one_line_errors(zoo_bringup, call, message):
    with pytest.raises(BadInput, match=re.escape(message)):
        call(zoo_bringup("mlp"))


def test_compare_metrics():
    from ttbench.compare.values import compare, pcc

    x = np.linspace(-1, 1, 100, dtype=np.float32)
    assert pcc(x, x) == pytest.approx(1.0) and pcc(x, -x) == pytest.approx(-1.0)
    assert pcc(np.zeros(4), np.zeros(4)) == 1.0 and pcc(np.zeros(4), np.ones(4)) == 0.0
    c = compare(x + 0.5, x, atol=1e-3, rtol=1e-3, min_pcc=0.99)
    assert c["pcc"] == pytest.approx(1.0) and not c["allclose"] and not c["ok"] and c["max_abs_error"] == pytest.approx(0.5)


def test_a_one_value_output_within_tolerance_passes():
    """PCC is undefined for one value (hf/groupvit's 1x1 logits: every CPU run read "pcc 0.000000", a torch-mlir
    failure, while the value was off by 1e-6): where either side is constant the comparison's own tolerances say
    whether the two agree, not numpy's default ones."""
    from ttbench.compare.values import compare

    golden = np.array([[0.09112]], dtype=np.float32)
    close = compare(golden + np.float32(1e-6), golden, atol=1e-2, rtol=1e-2, min_pcc=0.99)
    assert close["ok"] and close["pcc"] == 1.0, close
    far = compare(golden + np.float32(0.5), golden, atol=1e-2, rtol=1e-2, min_pcc=0.99)
    assert not far["ok"] and far["pcc"] == 0.0, far
    mask = np.zeros((2, 3), dtype=np.float32)  # a constant golden (a mask) against one that varies within tolerance
    assert compare(mask + np.float32([1e-4, 0, 0]), mask, atol=1e-2, rtol=1e-2, min_pcc=0.99)["ok"]


def test_cpu_workers_started_together_all_run():
    # The sweep and parallel notebooks start several CPU workers at once. Loading the Tenstorrent plugin in each
    # made 3 of 4 simultaneous starts fail to unpack its runtime, and one then hung in its first compile.
    from concurrent.futures import ThreadPoolExecutor

    from ttbench.proc.client import WorkerClient
    from ttbench.run.whole import run_text_on_device

    text = ("func.func @main(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {\n"
            "  %0 = stablehlo.add %a, %b : tensor<3xf32>\n  return %0 : tensor<3xf32>\n}\n")
    x = np.arange(3, dtype=np.float32)

    def start_and_run(_):
        with WorkerClient("cpu") as client:
            reply = run_text_on_device(client, text, [x, x], timeout=120)
            client.log.seek(0)
            return reply, client.log.read()

    with ThreadPoolExecutor(4) as pool:
        for reply, log in pool.map(start_and_run, range(4)):
            assert reply["ok"] and np.array_equal(reply["arrays"][0], 2 * x), reply
            assert "plugin configuration error" not in log, log[-500:]
