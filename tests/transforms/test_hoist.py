"""Hoisting inlined constants out of ONNX models' IR (issue 7)."""
import re

import numpy as np
import pytest

import ttbench as tb
from ttbench.analysis.const_eval import const_eval_report
from ttbench.hoist import Hoisted, hoist_constants
from ttbench.proc.client import shared_client
from ttbench.compare.values import compare
from ttbench.run.whole import pjrt_text, run_text_on_device

MIN_NUMEL = 1024


@pytest.fixture(scope="module")
def onnx_bringups():
    cache = {}

    def get(model, hoist=True):
        if (model, hoist) not in cache:
            m, x = tb.models.load(model)
            cache[model, hoist] = tb.bringup(m, x, frontend="onnx", params="inline", name=model,
                                             hoist=dict(min_numel=MIN_NUMEL, to="args") if hoist else None)
        return cache[model, hoist]

    return get


def _numel(shape):
    return int(np.prod(shape)) if shape else 1


@pytest.mark.tt  # its assertions need the Tenstorrent compiler's stages
@pytest.mark.parametrize("model", ["mlp", "mobilenet_v2"])
def test_no_large_constant_is_left_and_outputs_match(onnx_bringups, model):
    b = onnx_bringups(model)
    assert b.ok, b.table()
    for stage in ("stablehlo", "ttir"):
        left = [f for f in b.findings.of("constant", stage) if _numel(f.details["shape"]) > MIN_NUMEL
                and not f.details["splat"]]
        assert not left, [str(f) for f in left]
    assert b.hoisted.tensors and all(t.role == "parameter" for t in b.hoisted.tensors)  # named by content
    # the constant budget shows before/after
    summary = b.findings.summary()
    assert summary["torchfx"]["weights_inlined"] > 0.99
    if model == "mobilenet_v2":
        assert summary["stablehlo"]["weights_inlined"] < 0.01
    # same numbers as the unhoisted module: the hoisted one with the weights as arguments vs the original
    original = run_text_on_device(shared_client("cpu"), pjrt_text(b.hoisted.original_text),
                                  [x.numpy() for x in b.example_inputs], 600)["arrays"]
    hoisted = b.hoisted.run(list(b.example_inputs))
    for h, o in zip(hoisted, original):
        c = compare(h, o, atol=1e-5, rtol=0, min_pcc=0.9999)
        assert c["ok"] and c["max_abs_error"] <= 1e-5, c
    assert b.run().ok and onnx_bringups(model, hoist=False).run().ok
    # tt-mlir gets them as weights: the flatbuffer no longer carries them
    inline_fb = onnx_bringups(model, hoist=False).stages["ttnn"].meta["flatbuffer_bytes"]
    assert b.stages["ttnn"].meta["flatbuffer_bytes"] < inline_fb - sum(t.nbytes for t in b.hoisted.tensors) // 2


def test_weights_file_round_trips_and_swaps_without_recompiling(onnx_bringups, tmp_path):
    b = onnx_bringups("mlp")
    path = b.hoisted.save_weights(str(tmp_path / "weights.safetensors"))
    loaded = Hoisted.load_weights(path)
    assert set(loaded) == set(b.hoisted.weights)
    assert all(np.array_equal(loaded[k], v) for k, v in b.hoisted.weights.items())
    same = b.hoisted.run(list(b.example_inputs), weights=loaded)
    assert all(np.array_equal(a, c) for a, c in zip(same, b.hoisted.run(list(b.example_inputs))))
    zeroed = {k: np.zeros_like(v) for k, v in loaded.items()}
    assert not np.allclose(b.hoisted.run(list(b.example_inputs), weights=zeroed)[0], same[0])


def test_globals_give_verifiable_ml_program_ir(onnx_bringups):
    b = onnx_bringups("mlp", hoist=False)
    for mutable in (False, True):
        h = hoist_constants(b.stages["stablehlo"], min_numel=MIN_NUMEL, to="globals", mutable=mutable)
        assert h.stage.meta["verifier"] is None
        text = h.stage.full_text()
        globals_ = re.findall(r"ml_program\.global private (mutable )?@", text)
        assert len(globals_) == len(h.tensors) == 2 and all(bool(g) == mutable for g in globals_)
        load = "ml_program.global_load " if mutable else "ml_program.global_load_const "
        assert text.count(load) == 2
        with pytest.raises(tb.BadInput, match="cannot execute ml_program globals"):
            h.run(list(b.example_inputs))


@pytest.mark.tt  # its assertions need the Tenstorrent compiler's stages
def test_advisor_finds_the_weight_transposes_of_linear_layers(onnx_bringups):
    b = onnx_bringups("mlp")
    report = const_eval_report(b)
    transposes = {c.inputs[0] for c in report["candidates"] if c.ops == ["stablehlo.transpose"]}
    assert {"fc1.weight", "fc2.weight"} <= transposes
    assert report["tt_const_eval"]["functions"] > 0  # and tt-mlir did put work into const-eval


@pytest.mark.parametrize("hoist, message", [
    (dict(min_numel=10, to="nowhere"), "unknown hoist target 'nowhere'"),
    (dict(min_numel=10, size=3), "unknown hoist option(s) size"),
    ("1024", "hoist must be a dict"),
])
def test_bad_hoist_options(hoist, message):
    m, x = tb.models.load("mlp")
    with pytest.raises(tb.BadInput, match=re.escape(message)):
        tb.bringup(m, x, frontend="onnx", hoist=hoist, tt=False)


class _ConvThenMaxPool(__import__("torch").nn.Module):
    """A weight to hoist and a max-pool: its reduce_window region names block arguments %argN too."""

    def __init__(self):
        import torch

        super().__init__()
        self.conv = torch.nn.Conv2d(8, 16, 3)

    def forward(self, x):
        import torch

        return torch.nn.functional.max_pool2d(self.conv(x), 2)


def test_hoisting_next_to_regions_with_their_own_block_arguments():
    import torch

    m = _ConvThenMaxPool()
    x = torch.randn(1, 8, 10, 10)
    b = tb.bringup(m, (x,), frontend="onnx", params="inline", tt=False, hoist=dict(min_numel=MIN_NUMEL))
    assert b.stages["stablehlo"].ok, b.stages["stablehlo"].error
    assert "stablehlo.reduce_window" in {op.name for op in b.stages["stablehlo"].ops}
    assert [t.name for t in b.hoisted.tensors] == ["conv.weight"]
    assert b.run().ok


class _Table(__import__("torch").nn.Module):
    def __init__(self):
        super().__init__()
        torch = __import__("torch")
        self.table = torch.randn(64, 64)  # a plain tensor attribute: a constant, not a parameter
        self.fc = torch.nn.Linear(64, 64)

    def forward(self, x):
        return self.fc(x) @ self.table  # LINE_TABLE


@pytest.mark.parametrize("frontend", ["export", "dynamo", "onnx"])
def test_a_hoisted_constant_keeps_its_name_and_line_and_shows_as_a_table(frontend):
    """Issue 29, item 8: hoisted tensors carried no line, and Hoisted showed as a raw repr full of arrays; the
    dynamo frontend refused a model with a plain tensor attribute outright."""
    torch = __import__("torch")
    params = "inline" if frontend == "onnx" else "args"  # ONNX has initializers only: with args, no constant
    b = tb.bringup(_Table(), (torch.randn(8, 64),), tt=False, frontend=frontend, params=params,
                   hoist={"min_numel": 1000})
    assert b.ok, b.stages
    line = _Table.forward.__code__.co_firstlineno + 1
    table = next(t for t in b.hoisted.tensors if t.name == "table")
    finding = next(f for f in b.findings.of("constant", "torchfx") if f.details["name"] == "table")
    # the finding and the hoist name the same tensor alike (ONNX initializers carry no source line: None in both)
    assert (finding.location.short if finding.location else None) == table.location
    assert table.role == "constant" and b.run("stablehlo").ok
    if frontend == "onnx":
        return
    assert table.location == f"test_hoist.py:{line}"
    shown = repr(b.hoisted)
    assert shown.startswith("Hoisted 1 constant(s) of more than 1000 elements (16.0 KiB) out of stablehlo")
    assert f"table  constant  64x64  f32    16.0 KiB  test_hoist.py:{line}  %arg" in shown
    assert "array(" not in shown and len(shown.splitlines()) == 3
