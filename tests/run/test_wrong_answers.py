"""No silent wrong answers (issue 14): each test here failed on the main it was written against."""
import importlib.util
import io
import os
import sys

import numpy as np
import pytest
import torch

import ttbench as tb
from ttbench.ir.locations import LocTable, location_frames
from ttbench.ir.text import parse_ops


class CausalMask(torch.nn.Module):
    """An attention-style mask: −inf above the diagonal (non-splat), plus NaN/inf/−0.0 in a buffer."""

    def __init__(self):
        super().__init__()
        self.register_buffer("mask", torch.full((32, 32), float("-inf")).triu(1))
        self.register_buffer("odd", torch.tensor([1.0, float("nan"), float("inf"), -0.0] * 300))

    def forward(self, x):
        return torch.softmax(x + self.mask, -1) + torch.nan_to_num(self.odd[:32], nan=0.0, posinf=2.0)


class SplatMask(torch.nn.Module):
    def forward(self, x):
        return torch.softmax(x + torch.full((32, 32), float("-inf")).triu(1), -1)


def test_hoisting_keeps_non_finite_constants_bit_for_bit():
    m, x = CausalMask(), torch.randn(32, 32)
    b = tb.bringup(m, (x,), params="inline", tt=False, hoist=dict(min_numel=16, to="args"))
    assert b.ok, b.table()
    weights = b.hoisted.weights
    assert set(weights) == {"mask", "odd"}
    assert np.array_equal(weights["mask"].view(np.uint32), m.mask.numpy().view(np.uint32))
    assert np.array_equal(weights["odd"].view(np.uint32), m.odd.numpy().view(np.uint32))  # NaN, inf, -0.0
    result = b.run()
    assert result.ok and result.pcc > 0.9999, result


def test_splats_stay_in_the_ir_and_the_hoisted_run_matches():
    b = tb.bringup(SplatMask(), (torch.randn(32, 32),), params="inline", tt=False, hoist=dict(min_numel=16))
    assert b.ok, b.table()
    assert b.hoisted.tensors == []  # a splat is 4 bytes in the IR: hoisting it would make a full-size tensor
    splats = [op for op in b.stages["stablehlo"].ops if "constant" in op.attrs and op.attrs["constant"].splat]
    assert any("0xFF800000" in op.text for op in splats)  # -inf kept as MLIR prints it
    assert b.run().ok


class Scaled(torch.nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale
        self.fc = torch.nn.Linear(16, 16)

    def forward(self, x):
        return self.fc(x) * self.scale


def _scaled(scale, seed=0):
    torch.manual_seed(seed)
    return Scaled(scale), (torch.randn(4, 16),)


def _stage_block(text: str, stage: str) -> str:
    """The lines a diff's text gives one stage (its indented block)."""
    lines = text.splitlines()
    start = lines.index(f"{stage}:") + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("  ")), len(lines))
    return "\n".join(lines[start:end])


def test_diff_reports_a_changed_weight_in_every_stage(tmp_path):
    model_a, model_b = _scaled(0.5, seed=0), _scaled(0.5, seed=1)
    a = tb.bringup(*model_a, params="inline", tt=False)
    b = tb.bringup(*model_b, params="inline", tt=False)
    d = tb.diff(a, b)
    assert d.changed, d.text()
    changed = {s.stage for s in d.stages if s.constants}
    assert {"torchfx", "stablehlo"} <= changed, d.text()
    assert "meaningful changes: yes" in d.text()
    # Issue 29, item 7: a changed weight reads as one line: its name, its shape, the largest change of an element.
    weight_delta = (model_a[0].fc.weight - model_b[0].fc.weight).abs().max().item()
    for stage in ("torchfx", "stablehlo"):
        block = _stage_block(d.text(), stage)
        assert ": 2 changed" in block, (stage, block)
        assert f"~ fc.weight 16x16xf32: max |Δ| {weight_delta:.4g}" in block, (stage, block)
        assert "~ fc.bias 16xf32: max |Δ| " in block, (stage, block)


def test_diff_names_a_changed_scale_and_its_value():
    a = tb.bringup(*_scaled(0.5), tt=False)
    b = tb.bringup(*_scaled(0.25), tt=False)
    d = tb.diff(a, b)
    text = d.text()
    stablehlo = next(s for s in d.stages if s.stage == "stablehlo")
    assert stablehlo.constants, text
    assert "~ 1xf64: 0.5 -> 0.25 (max |Δ| 0.25)" in text, text  # a pair at one line reads as one change
    fx = next(s for s in d.stages if s.stage == "fx")
    # The argument that changed, not just the op name.
    assert [(x["op"], x["from"], x["to"]) for c in fx.op_changes for x in c["differs"]] == [
        ("aten.mul.Tensor", "0.5", "0.25")], text
    assert "aten.mul.Tensor changed: 0.5 -> 0.25" in text, text


def test_weights_passed_as_arguments_are_compared_too(tmp_path):
    a = tb.bringup(*_scaled(0.5, seed=0), tt=False)
    b = tb.bringup(*_scaled(0.5, seed=1), tt=False)
    d = tb.diff(a, b)
    assert "fc.weight" in d.weights and d.changed, d.text()


class MaxPool(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.max_pool2d(x, 2)


def test_region_ops_have_their_location_and_their_bodies_are_not_stage_ops():
    b = tb.bringup(MaxPool(), (torch.randn(1, 2, 8, 8),), tt=False)
    ops = b.stages["stablehlo"].ops
    pools = [op for op in ops if op.name == "stablehlo.reduce_window"]
    assert len(pools) == 1 and pools[0].location is not None and pools[0].location.file == __file__
    assert "stablehlo.maximum" not in {op.name for op in ops}  # the reducer belongs to reduce_window
    assert not b.findings.of("location_lost", "stablehlo")
    # the text parser (TTIR/TTNN files, export folders) reads the printed module the same way
    printed = parse_ops(b.stages["stablehlo"].full_text())
    assert [(o.name, o.location) for o in printed] == [(o.name, o.location) for o in ops]


def test_source_files_with_non_ascii_names_and_quotes(tmp_path):
    path = tmp_path / 'modèle "q"-ü.py'
    path.write_text("import torch\n\n\nclass M(torch.nn.Module):\n    def forward(self, x):\n"
                    "        return torch.relu(x) * 2\n")
    spec = importlib.util.spec_from_file_location("odd_named_model", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    b = tb.bringup(module.M(), (torch.randn(3, 4),), tt=False)
    for stage in ("fx", "torchfx", "stablehlo"):
        files = {op.location.file for op in b.stages[stage].ops if op.location}
        assert files == {str(path)}, (stage, files)
    # and through the printed form (MLIR writes the bytes as \C3\A8 and the quotes as \22)
    printed = parse_ops(b.stages["stablehlo"].full_text())
    assert {op.location.file for op in printed if op.location} == {str(path)}


def test_line_ranges_inside_callsites_are_read_not_raised():
    frames = LocTable().frames('callsite("/p/a.py":3:4 to 5:6 at fused["/p/b.py":7:0, "n"("/p/c.py":1:2 to :9)])')
    assert [(f.file, f.line) for f in frames] == [("/p/a.py", 3), ("/p/b.py", 7), ("/p/c.py", 1)]
    assert LocTable().frames('callsite("/p/a.py":3:4 broken') == ()  # not understood: no location, no exception


def test_locations_are_read_through_the_bindings():
    from torch_mlir import ir

    with ir.Context():
        loc = ir.Location.callsite(ir.Location.file("/p/modèle.py", 3, 0), [ir.Location.file("/p/b.py", 7, 0)])
        assert [(f.file, f.line) for f in location_frames(loc)] == [("/p/modèle.py", 3), ("/p/b.py", 7)]


def test_ttbench_bugs_are_internal_errors_not_compiler_failures(monkeypatch):
    import ttbench.core
    import ttbench.stages.mlir_stage as mlir_stage

    # A ttbench bug: a ttbench function handed the wrong thing (it iterates a Module: TypeError in ttbench's code).
    monkeypatch.setattr(mlir_stage, "walk_ops", ttbench.core.op_histogram)
    m, x = tb.models.load("mlp")
    b = tb.bringup(m, x, tt=False)
    stage = b.stages["torchfx"]
    assert not stage.ok and stage.meta.get("internal_error")
    assert "internal error in ttbench" in stage.error and "TypeError" in stage.error, stage.error
    assert "op_histogram" in stage.meta["traceback"]
    assert b.stages["fx"].ok  # the stages before it are kept
    with pytest.raises(tb.InternalError):
        tb.bringup(m, x, tt=False, strict=True)
    # The lowering had started beside the reading of the torchfx stage: it is ended with it, files and all.
    import psutil
    import tempfile

    workers = [p for p in psutil.Process().children(recursive=True)
               if any(a.endswith("mlir_worker.py") for a in p.cmdline())]
    assert not [p for p in workers if p.status() != psutil.STATUS_ZOMBIE], workers
    assert not [f for f in os.listdir(tempfile.gettempdir()) if f.startswith(f"ttbench-passes-{os.getpid()}-")]


def test_compiler_failures_stay_stage_errors():
    class Unlowerable(torch.nn.Module):
        def forward(self, x):
            return torch.fft.fft(x).real

    b = tb.bringup(Unlowerable(), (torch.randn(8),), tt=False)
    failed = b.failed_stage
    assert failed is not None and not failed.meta.get("internal_error"), b.table()
    assert "internal error" not in failed.error


def test_loading_a_model_leaves_the_global_rng_alone():
    torch.manual_seed(1234)
    before = torch.get_rng_state()
    tb.models.load("mlp")
    assert torch.equal(torch.get_rng_state(), before)


def test_bringup_keeps_the_users_torch_compile_caches():
    calls = []

    def counting(gm, example_inputs):
        calls.append(1)
        return gm.forward

    f = torch.compile(lambda t: torch.sin(t) + 1, backend=counting)
    x = torch.randn(4)
    f(x)
    m, inputs = tb.models.load("mlp")
    assert tb.bringup(m, inputs, frontend="dynamo", tt=False).ok
    f(x)
    assert len(calls) == 1  # no recompilation: the user's cache survived


def test_report_plots_leave_the_matplotlib_backend_alone(tmp_path):
    import matplotlib

    before = matplotlib.get_backend()
    m, x = tb.models.load("mlp")
    tb.bringup(m, x, tt=False).save_html(str(tmp_path / "r.html"))
    assert matplotlib.get_backend() == before


def test_constants_are_read_bit_for_bit_in_every_element_type():
    from torch_mlir import ir

    from ttbench.ir.walk import constant_arrays
    from ttbench.stages.torchfx import new_context

    cases = [  # (MLIR literal, type, the bits expected)
        ("[1.5, 0xFF80, -2.0]", "3xbf16", np.array([0x3FC0, 0xFF80, 0xC000], np.uint16)),
        ("0xFF80", "4xbf16", np.full(4, 0xFF80, np.uint16)),
        ("[1.5, 0x7C00, 0x7E01]", "3xf16", np.array([0x3E00, 0x7C00, 0x7E01], np.uint16)),
        ("[0.1, 0x7FC00001]", "2xf32", np.array([0x3DCCCCCD, 0x7FC00001], np.uint32)),
        ("[0.1, 0x7FF8000000000001]", "2xf64", np.array([0x3FB999999999999A, 0x7FF8000000000001], np.uint64)),
        ("[true, false, true]", "3xi1", np.array([1, 0, 1], np.uint8)),
        ("[1, 255, 7]", "3xui8", np.array([1, 255, 7], np.uint8)),
        ("[1, -9223372036854775807, 7]", "3xi64", np.array([1, 2**63 + 1, 7], np.uint64)),
    ]
    body = "\n".join(f"  %{i} = stablehlo.constant dense<{v}> : tensor<{t}>" for i, (v, t, _) in enumerate(cases))
    types = ", ".join(f"tensor<{t}>" for _, t, _ in cases)
    values = ", ".join(f"%{i}" for i in range(len(cases)))
    with new_context():
        module = ir.Module.parse(f"func.func @main() -> ({types}) {{\n{body}\n  return {values} : {types}\n}}")
    arrays = constant_arrays(module)
    for i, (_, t, bits) in enumerate(cases):
        got = arrays[i]
        assert got.view(bits.dtype).tolist() == bits.tolist(), (t, got)


def test_a_plain_and_on_tensors_is_not_an_inplace_op():
    class Masks(torch.nn.Module):
        def forward(self, a, b):
            return (a > 0) & (b > 0)

    b = tb.bringup(Masks(), (torch.randn(4), torch.randn(4)), frontend="dynamo", tt=False)
    assert not b.findings.of("inplace"), [str(f) for f in b.findings.of("inplace")]


class UsesSecondArgumentFirst(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, a, b):
        y = self.fc(b)  # dynamo orders graph inputs by first use: (b, a)
        return y * 2 + a


def test_dynamo_feeds_each_input_to_its_own_graph_input():
    # Fed by position, a and b were swapped: every stage ok, PCC about 0.
    a, b = torch.randn(2, 8), torch.randn(2, 8) * 10
    bu = tb.bringup(UsesSecondArgumentFirst(), (a, b), frontend="dynamo", tt=False)
    assert bu.ok, bu.table()
    inputs = [arg.name for arg in bu.arguments if arg.role == "input"]
    assert inputs == ["l_b_", "l_a_"]  # the graph's order, each fed the tensor it names
    result = bu.run("stablehlo")
    assert result.ok and result.pcc > 0.9999, result


class WeightUsedTwice(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(8, 8))

    def forward(self, x):
        return x @ self.w + (x * 2) @ self.w


@pytest.mark.parametrize("frontend", ["export", "dynamo"])
def test_an_inlined_weight_used_twice_imports_and_runs(frontend):
    # torchfx failed with torch-mlir's "Node already has a value" when one inlined weight fed two ops.
    b = tb.bringup(WeightUsedTwice(), (torch.randn(2, 8),), frontend=frontend, params="inline", tt=False)
    assert b.ok, b.table()
    weights = [op for op in b.stages["stablehlo"].ops if "constant" in op.attrs and op.attrs["constant"].nbytes == 256]
    assert len(weights) == 1  # one literal once lowered (the torch dialect holds it at each use)
    result = b.run("stablehlo")
    assert result.ok and result.pcc > 0.9999, result


class Bf16Linear(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8).to(torch.bfloat16)

    def forward(self, x):
        return torch.relu(self.fc(x))


class Fp8Input(torch.nn.Module):
    def forward(self, x):
        return x.to(torch.float32) * 2


@pytest.mark.parametrize("model, x", [(Bf16Linear(), torch.randn(2, 8).to(torch.bfloat16)),
                                      (Fp8Input(), torch.randn(4, 8).to(torch.float8_e4m3fn))],
                         ids=["bf16", "fp8"])
def test_bf16_and_fp8_tensors_survive_the_hand_off_to_the_cpu_worker(model, x):
    # numpy's .npz turned them into opaque |V2/|V1 arrays: "Dtype |V2 is not a valid JAX array type".
    b = tb.bringup(model, (x,), tt=False)
    result = b.run("stablehlo")
    assert result.ok and result.pcc > 0.9999, result


class DrawsNoise(torch.nn.Module):
    """Random numbers in forward (ViTMAE masks a random subset of patches): no run of it can match another."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        return self.fc(x) + torch.rand_like(x)


def test_a_model_whose_own_outputs_vary_gets_no_pcc_and_says_why():
    """Two eager runs on the same inputs differ: a PCC against either is noise, not the compiler's doing."""
    b = tb.bringup(DrawsNoise(), (torch.randn(2, 8),), tt=False)
    state = torch.random.get_rng_state()
    result = b.run("stablehlo")
    assert result.pcc is None and not result.ok
    assert "not deterministic" in result.message and "differ" in result.message
    assert torch.equal(torch.random.get_rng_state(), state)  # the user's generator is left as it was
    steady = tb.bringup(*tb.models.load("mlp"), tt=False).run("stablehlo")
    assert steady.ok and steady.pcc > 0.999


class ReturnsNothing(torch.nn.Module):
    def forward(self, x):
        return ()


def test_a_model_that_returns_no_tensor_is_not_a_match():
    """Zero outputs compared is no evidence: the run says so and has no PCC (it said "0 output(s) match (min pcc
    1.000000)", and the tracker counted it a pass)."""
    result = tb.bringup(ReturnsNothing(), (torch.randn(2, 8),), tt=False).run("stablehlo")
    assert not result.ok and result.pcc is None
    assert result.message == "nothing compared: the model returns no tensor"


class ScalesItsOwnWeight(torch.nn.Module):
    """Updates a parameter in place in forward, as transformers' RWKV rescales its layers on its first call."""

    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        with torch.no_grad():
            self.lin.weight.mul_(0.5)
        return self.lin(x)


def test_a_parameter_the_model_updates_in_place_is_state_and_its_new_value_is_compared():
    # torch.export returns the new parameter before the output: the run said "2 outputs, the golden has 1"
    model = ScalesItsOwnWeight()
    before = model.lin.weight.detach().clone()
    b = tb.bringup(model, (torch.randn(3, 4),), tt=False)
    assert torch.equal(model.lin.weight, before)  # the bringup left the user's model as it was
    assert {a.name: a.role for a in b.arguments}["lin.weight"] == "cache"
    [update] = [f for f in b.findings.of("inplace", "fx") if "updated in place" in f.message]
    assert update.message.startswith("parameter lin.weight is updated in place by aten.mul_")
    result = b.run("stablehlo")
    assert result.ok and len(result.arrays) == 2, result.message
    assert np.allclose(result.golden_arrays[0], before.numpy() * 0.5)
