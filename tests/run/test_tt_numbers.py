"""The Tenstorrent numbers right or refused (issue 40): every field the compiler emits honoured or refused, the op
kinds held-out vision models meet, a stage comparison that names the culprit, and the semantic check on fused
activations. Each model goes through the real Tenstorrent compiler (compile-only); its TTIR/TTNN programs run in
ttbench's interpreter against PyTorch. The models are defined here, in a file, so every op keeps its source line.
Tests marked `tt` need the compiler; the handcrafted programs at the end need only torch (`make test-fast`)."""
import re

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

import ttbench as tb
from tests.tt.interp.test_handlers import _program, _run  # the same handcrafted-program helpers
from tests.tt.interp.test_programs import _edited  # and the same edit
from ttbench.tt.interp import NotInterpreted, Unsupported, interpret_text, unsupported_reason
from ttbench.tt.program import parse_program


class SqueezeExcite(nn.Module):
    """MobileNetV3's block: conv -> global pool -> 1x1 conv -> ReLU -> 1x1 conv -> hard-sigmoid gate. tt-mlir fuses
    the ReLU into the first 1x1 conv's conv2d_config and folds hard-sigmoid's `+ 3` into a const-eval bias."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, padding=1)
        self.reduce = nn.Conv2d(16, 8, 1)
        self.expand = nn.Conv2d(8, 16, 1)

    def forward(self, x):
        x = self.stem(x)
        gate = x.mean((2, 3), keepdim=True)
        gate = torch.relu(self.reduce(gate))
        gate = F.hardsigmoid(self.expand(gate))
        return x * gate


class AveragePools(nn.Module):
    def __init__(self):
        super().__init__()
        self.same = nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False)
        self.down = nn.AvgPool2d(2)

    def forward(self, x):
        return self.down(self.same(x))


class Conv1dNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 8, 3, padding=1, stride=2)

    def forward(self, x):
        return torch.relu(self.conv(x))


class Conv3dNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(4, 8, 3, padding=1)

    def forward(self, x):
        return self.conv(x)


class ElementScatters(nn.Module):
    """Scatters of single elements (`rows_scatter column = true`): a hard one-hot (groupvit's hard softmax), a
    scatter_add with repeated indices, an index_add along a middle dimension."""

    def forward(self, x):
        one_hot = torch.zeros_like(x).scatter_(-1, x.argmax(-1, keepdim=True), 1.0)
        index = (x.abs() * 7).long() % x.shape[1]
        added = torch.zeros_like(x).scatter_add(1, index, x)
        return one_hot + added + x.index_add(1, torch.tensor([2, 0]), x[:, :2] * 3)


class FusedTanhGelu(nn.Module):
    """A tanh GELU after batch norm: tt-mlir fuses it into the add as `activations = [gelu]`, which names no
    approximation."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 1)
        self.norm = nn.BatchNorm2d(4)

    def forward(self, x):
        y = self.norm(self.conv(x)) + 1.0
        return F.gelu(y, approximate="tanh")


_BRINGUPS: dict = {}


def _bringup(model_cls, *shape):
    if model_cls not in _BRINGUPS:
        torch.manual_seed(0)
        model = model_cls().eval()
        with torch.no_grad():  # random BN statistics: the fold into the conv is then not the identity
            for m in model.modules():
                if isinstance(m, nn.BatchNorm2d):
                    m.running_mean.uniform_(-1, 1)
                    m.running_var.uniform_(0.5, 2)
        _BRINGUPS[model_cls] = tb.bringup(model, (torch.randn(*shape) * 3,), name=model_cls.__name__)
    b = _BRINGUPS[model_cls]
    assert b.stages["ttnn"].ok, b.table()
    return b


@pytest.mark.tt
def test_squeeze_excite_with_its_relu_fused_into_a_conv_matches_pytorch():
    b = _bringup(SqueezeExcite, 1, 3, 16, 16)
    assert "activation = <op_type = relu>" in b.stages["ttnn"].full_text()  # what the compiler does today
    for stage in ("ttir", "ttnn"):
        r = b.run(stage, device="cpu")
        assert r.executed and r.ok and r.pcc >= 0.99999, r


@pytest.mark.tt
def test_a_wrong_fused_activation_is_the_first_divergence_at_its_conv():
    b = _bringup(SqueezeExcite, 1, 3, 16, 16)
    clean = b.compare_stages("ttir", "ttnn")
    assert clean.first_divergence is None and clean.rows, clean.summary()
    fused = [m for m in clean.rows if m.part == "after relu"]
    assert len(fused) == 1 and fused[0].op.name == "ttnn.conv2d"
    assert fused[0].reference.name in ("ttir.relu", "ttir.maximum")
    conv = fused[0].op
    wrong = _edited(b, "ttnn", lambda t: t.replace("activation = <op_type = relu>", "activation = <op_type = sigmoid>"))
    assert not wrong.run("ttnn", device="cpu").ok
    d = wrong.compare_stages("ttir", "ttnn").first_divergence
    assert d is not None and d.op.index == conv.index and d.part == "after sigmoid", d
    assert d.op.module == "reduce" and d.reference.name in ("ttir.relu", "ttir.maximum")


@pytest.mark.tt
def test_a_const_eval_bias_fold_is_not_a_divergence():
    b = _bringup(SqueezeExcite, 1, 3, 16, 16)
    for earlier in ("stablehlo", "ttir"):
        r = b.compare_stages(earlier, "ttnn")
        assert r.first_divergence is None, r.summary()
        const_eval = [m for m in r.rows + r.unmatched if "const_eval" in m.op.attrs.get("func", "")]
        assert const_eval and all(m.reference is None and "const-eval" in m.reason for m in const_eval)


@pytest.mark.tt
def test_an_unknown_field_inside_a_config_refuses_naming_op_line_and_field():
    b = _bringup(SqueezeExcite, 1, 3, 16, 16)
    edited = _edited(b, "ttnn", lambda t: t.replace("activation = <op_type = relu>",
                                                    "activation = <op_type = relu>, winograd_tiles = 4", 1))
    r = edited.run("ttnn", device="cpu")
    assert not r.executed and r.pcc is None
    assert "field winograd_tiles of conv2d_config of ttnn.conv2d" in r.message
    assert "test_tt_numbers.py" in r.message and "reduce" in r.message
    refused = edited.compare_stages("stablehlo", "ttnn")
    assert refused.not_run and "winograd_tiles" in refused.not_run and "no op diverges" not in refused.summary()


@pytest.mark.tt
def test_a_refusal_is_known_before_the_earlier_stage_runs(monkeypatch):
    from ttbench.run import stage_compare

    b = _bringup(SqueezeExcite, 1, 3, 16, 16)
    edited = _edited(b, "ttnn", lambda t: t.replace('"ttnn.multiply"', '"ttnn.multiply_v2"')
                     .replace('"ttnn.divide"', '"ttnn.divide_v2"'))
    ran = []
    real = stage_compare.stage_values
    monkeypatch.setattr(stage_compare, "stage_values", lambda b, s, *a: ran.append(s) or real(b, s, *a))
    r = edited.compare_stages("stablehlo", "ttnn")
    assert r.not_run and not ran, (r.not_run, ran)
    assert "does not know ttnn.divide_v2" in r.not_run  # the first in program order, then how much is missing
    assert "2 things it does not know" in r.not_run and "ttnn.multiply_v2" in r.not_run


@pytest.mark.tt
def test_an_edited_stage_past_what_ttbench_reads_is_refused_by_run_and_comparison():
    # 1e5 nested brackets escaped b.run and compare_stages as a raw RecursionError
    b = _bringup(SqueezeExcite, 1, 3, 16, 16)
    edited = _edited(b, "ttnn", lambda t: t.replace('"ttnn.multiply"(', '"ttnn.multiply"(', 1).replace(
        "<{", "<{nest = " + "[" * 100000 + "]" * 100000 + ", ", 1))
    result = edited.run("ttnn", device="cpu")
    assert not result.executed and "cannot read the ttnn program: an attribute nested deeper" in result.message
    assert "internal error" not in result.message
    compared = edited.compare_stages("ttir", "ttnn")
    assert "cannot read the ttnn program" in compared.not_run and not compared.rows
    # the simulator's route reads the same text first (it crashed with a NameError there, simulator or not)
    simulated = edited.run("ttnn", device="ttsim")
    assert not simulated.executed and "cannot read the ttnn program: an attribute nested deeper" in simulated.message


@pytest.mark.tt
def test_every_field_the_compiler_emits_is_honoured_or_listed_as_device_only(zoo_bringup):
    """Every structured attribute of every op of these programs is decided field by field; a field the
    compiler starts to emit that is in neither list fails here (and refuses the run)."""
    programs = [_bringup(m, *shape) for m, shape in ((SqueezeExcite, (1, 3, 16, 16)), (Conv1dNet, (2, 4, 16)),
                                                     (FusedTanhGelu, (1, 4, 8, 8)))]
    programs += [zoo_bringup(name, "export", "args", tt=True) for name in ("resnet18", "mobilenet_v2", "bert_tiny")]
    for b in programs:
        for stage in ("ttir", "ttnn"):
            program = parse_program(stage, b.stages[stage].full_text())
            undecided = {reason for fn in program.functions.values() for op in fn.ops
                         if (reason := unsupported_reason(op))}
            assert not undecided, (b.model_name, stage, undecided)


@pytest.mark.tt
@pytest.mark.parametrize("model_cls, shape, min_pcc", [
    (AveragePools, (1, 4, 8, 8), 0.99999),  # every average pool comes back as a sum pool and a divisor map
    (Conv1dNet, (2, 4, 16), 0.99999),
    (Conv3dNet, (1, 4, 4, 6, 6), 0.9999),  # the compiler puts conv3d's weights in bf16
    (ElementScatters, (2, 3, 5), 0.99999),
])
def test_held_out_op_kinds_are_interpreted(model_cls, shape, min_pcc):
    b = _bringup(model_cls, *shape)
    for stage in ("ttir", "ttnn"):
        r = b.run(stage, device="cpu")
        assert r.executed and r.ok and r.pcc >= min_pcc, r


@pytest.mark.tt
def test_a_tanh_gelu_fused_into_an_add_is_a_semantic_finding_drawn_on_its_op():
    b = _bringup(FusedTanhGelu, 1, 4, 8, 8)
    found = b.findings.of("semantic")
    assert len(found) == 1, b.findings.counts()
    f = found[0]
    assert f.op == "ttnn.add" and f.details["fused"] and f.details["matches"] == "tanh approximation"
    assert "fused gelu" in f.message and f.location.short.startswith("test_tt_numbers.py")
    assert re.search(rf"class='op f-semantic' id='[\w-]*-op-ttnn-{f.details['index']}'", b._repr_html_())


@pytest.mark.tt
def test_a_tanh_gelu_through_onnx_is_a_semantic_finding_read_against_onnxruntime():
    torch.manual_seed(0)
    b = tb.bringup(FusedTanhGelu().eval(), (torch.randn(1, 4, 8, 8) * 3,), frontend="onnx", name="gelu_onnx")
    found = b.findings.of("semantic")
    assert len(found) == 1, b.findings.counts()
    f = found[0]
    assert f.details["reference_op"] == "onnx.Gelu" and f.details["matches"] == "tanh approximation"
    assert "onnxruntime" in f.message and f.details["fused"]


@pytest.mark.tt
def test_compare_stages_over_a_model_without_source_lines_says_nothing_was_compared():
    namespace: dict = {}
    exec("import torch\nclass M(torch.nn.Module):\n    def forward(self, x):\n        return torch.relu(x) * 2 + 1\n",
         namespace)  # compiled under no file: no op keeps a source line
    b = tb.bringup(namespace["M"](), (torch.randn(4, 8),), name="no_lines")
    r = b.compare_stages("stablehlo", "ttnn")
    assert r.not_run is None and not r.rows and r.unmatched
    assert "nothing compared" in r.summary() and "no op diverges" not in r.summary()
    assert "every compared value" not in r.summary()


# --- handcrafted programs against torch's own ops ---------------------------------------------------------------

def _scatter(reduce: str) -> str:
    return _program(
        f'    %0 = "ttnn.rows_scatter"(%arg0, %arg1, %arg2) <{{column = false, reduce = #ttcore.reduce_type<{reduce}>, '
        f'sizes = array<i64: 8>, windows = array<i64: 1>}}> : (tensor<1x8x4xf32>, tensor<1x1x3xsi32>, '
        f'tensor<1x3x4xf32>) -> tensor<1x8x4xf32>\n    return %0 : tensor<1x8x4xf32>',
        "%arg0: tensor<1x8x4xf32>, %arg1: tensor<1x1x3xsi32>, %arg2: tensor<1x3x4xf32>", "tensor<1x8x4xf32>")


def test_rows_scatter_adds_replaces_and_refuses_an_undefined_replace():
    data, updates = torch.randn(1, 8, 4), torch.randn(1, 3, 4)
    index = torch.tensor([[[5, 1, 5]]], dtype=torch.int32)
    (added,) = _run(_scatter("sum"), data, index, updates)
    assert torch.allclose(added[0], data[0].index_add(0, index.reshape(-1).long(), updates[0]))
    distinct = torch.tensor([[[5, 1, 2]]], dtype=torch.int32)
    (replaced,) = _run(_scatter("invalid"), data, distinct, updates)
    want = data[0].clone()
    want[[5, 1, 2]] = updates[0]
    assert torch.equal(replaced[0], want)
    with pytest.raises(Unsupported, match="which one lands is not defined"):
        _run(_scatter("invalid"), data, index, updates)


def test_a_large_boolean_constant_is_read_as_packed_bits():
    mask = torch.rand(3, 202) > 0.5  # over 100 elements: MLIR prints it as hex, one bit per element
    packed = bytes(sum(int(bit) << i for i, bit in enumerate(mask.reshape(-1)[k:k + 8].tolist()))
                   for k in range(0, mask.numel(), 8))
    text = _program(f'    %0 = "ttnn.constant"() <{{value = dense<"0x{packed.hex().upper()}"> : tensor<3x202xi1>}}> : '
                    f'() -> tensor<3x202xi1>\n    return %0 : tensor<3x202xi1>', "", "tensor<3x202xi1>")
    (out,) = _run(text)
    assert torch.equal(out.bool(), mask)


def test_a_gather_out_of_bounds_is_the_programs_fault_not_ttbenchs():
    text = _program('    %0 = "ttnn.rows_gather"(%arg0, %arg1) <{column = false, fill_out_of_bounds = false, '
                    'sizes = array<i64: 6>, windows = array<i64: 1>}> : (tensor<6x4xf32>, tensor<1x1x2xsi32>) -> '
                    'tensor<2x4xf32>\n    return %0 : tensor<2x4xf32>',
                    "%arg0: tensor<6x4xf32>, %arg1: tensor<1x1x2xsi32>", "tensor<2x4xf32>")
    with pytest.raises(NotInterpreted) as caught:
        interpret_text("ttnn", text, [torch.randn(6, 4), torch.tensor([[[1, 6]]], dtype=torch.int32)])
    assert not caught.value.internal and "internal error" not in str(caught.value)
    assert str(caught.value).startswith("the compiled program faults: ttnn.rows_gather #0 at ? reads out of bounds")


def _one_op(line: str, result: str = "tensor<2xf32>") -> str:
    return _program(f"    %0 = {line}\n    return %0 : {result}", "", result)


HOSTILE_PROGRAMS = {  # what each did: a raw exception out of b.run, "a bug in ttbench", or gigabytes allocated
    "nesting": (_one_op('"ttnn.full"() <{fill_value = 1.0 : f32, shape = ' + "[" * 100000 + "]" * 100000
                        + '}> : () -> tensor<2xf32>'), "cannot read the ttnn program: an attribute nested deeper"),
    "digits": (_one_op('"ttnn.full"() <{fill_value = ' + "9" * 5000 + ' : i32, shape = #ttnn.shape<2>}> : () -> '
                       'tensor<2xsi32>', "tensor<2xsi32>"), "cannot read the ttnn program: a number of 5000 characters"),
    "wide hex": (_one_op('"ttnn.constant"() <{value = dense<0xFFFFFFFFFF> : tensor<2xbf16>}> : () -> tensor<2xbf16>',
                         "tensor<2xbf16>"), "cannot read ttnn.constant #0 at ?: 0xFFFFFFFFFF is wider than its type bf16"),
    "huge shape": (_one_op('"ttnn.full"() <{fill_value = 1.0 : f32, shape = #ttnn.shape<200000x200000>}> : () -> '
                           'tensor<2xf32>'), "the compiled program faults: ttnn.full #0 at ? states shape 200000x200000"),
    "short blob": (_one_op('"ttnn.constant"() <{value = dense<"0x0000803F0000803F0000"> : tensor<2xf32>}> : () -> '
                           'tensor<2xf32>'), "the compiled program faults: ttnn.constant #0 at ? holds 10 bytes"),
    "integer division by zero": (
        _program('    %0 = "ttnn.constant"() <{value = dense<[4, 0]> : tensor<2xsi32>}> : () -> tensor<2xsi32>\n'
                 '    %1 = "ttnn.divide"(%0, %0) : (tensor<2xsi32>, tensor<2xsi32>) -> tensor<2xsi32>\n'
                 '    return %1 : tensor<2xsi32>', "", "tensor<2xsi32>"),
        "the compiled program faults: ttnn.divide #1 at ? divides an integer by zero"),
    "huge repeat": (
        _program('    %0 = "ttnn.repeat"(%arg0) <{repeat_dims = #ttnn.shape<100000x100000>}> : (tensor<1x2xf32>) -> '
                 'tensor<1x2xf32>\n    return %0 : tensor<1x2xf32>', "%arg0: tensor<1x2xf32>", "tensor<1x2xf32>"),
        "the compiled program faults: ttnn.repeat #0 at ? states a repeat to 100000x200000 for a result of 1x2xf32"),
    "long arange": (_one_op('"ttnn.arange"() <{start = 0 : i64, end = 1000000000000 : i64, step = 1 : i64}> : () -> '
                            'tensor<2xf32>'), "the compiled program faults: ttnn.arange #0 at ? states arange(0, "),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_PROGRAMS))
def test_a_hostile_program_is_refused_in_one_line_without_allocating_it(case):
    text, message = HOSTILE_PROGRAMS[case]
    with pytest.raises(NotInterpreted) as caught:
        interpret_text("ttnn", text, [torch.ones(1, 2)] if "%arg0" in text else [])
    assert str(caught.value).startswith(message) and not caught.value.internal, str(caught.value)
    assert "\n" not in str(caught.value)


def test_argmax_takes_the_first_of_equal_values_and_keeps_dims_when_asked():
    x = torch.tensor([[1, 7, 7, 0], [3, 3, 2, 9]], dtype=torch.int32)
    text = _program('    %0 = "ttnn.argmax"(%arg0) <{dim = 1 : si32, keep_dim = true}> : (tensor<2x4xsi32>) -> '
                    'tensor<2x1xui32>\n    return %0 : tensor<2x1xui32>', "%arg0: tensor<2x4xsi32>",
                    "tensor<2x1xui32>")
    (out,) = _run(text, x)
    assert out.reshape(-1).tolist() == [1, 3]


def test_conv2d_config_weights_dtype_rounds_the_weights():
    x, weight = torch.randn(1, 4, 5, 5), torch.randn(2, 4, 1, 1) * (1 + 1e-3)
    flat = x.permute(0, 2, 3, 1).reshape(1, 1, 25, 4)
    text = _program(
        '    %0 = "ttnn.conv2d"(%arg0, %arg1) <{batch_size = 1 : i32, conv2d_config = #ttnn.conv2d_config<'
        'weights_dtype = bf16, activation = <op_type = relu>, config_tensors_in_dram = true>, dilation = '
        'array<i32: 1, 1>, groups = 1 : i32, in_channels = 4 : i32, input_height = 5 : i32, input_width = 5 : i32, '
        'kernel_size = array<i32: 1, 1>, out_channels = 2 : i32, padding = array<i32: 0, 0>, stride = '
        'array<i32: 1, 1>}> : (tensor<1x1x25x4xf32>, tensor<2x4x1x1xf32>) -> tensor<1x1x25x2xf32>\n'
        '    return %0 : tensor<1x1x25x2xf32>', "%arg0: tensor<1x1x25x4xf32>, %arg1: tensor<2x4x1x1xf32>",
        "tensor<1x1x25x2xf32>")
    (out,) = _run(text, flat, weight)
    want = torch.relu(F.conv2d(x, weight.to(torch.bfloat16).float())).permute(0, 2, 3, 1).reshape(1, 1, 25, 2)
    assert torch.allclose(out, want, atol=1e-6)
    exact = torch.relu(F.conv2d(x, weight)).permute(0, 2, 3, 1).reshape(1, 1, 25, 2)
    assert not torch.allclose(out, exact, atol=1e-6)  # the rounding is really applied
    with pytest.raises(Unsupported, match="weights_dtype = bfp_bf8"):
        _run(text.replace("weights_dtype = bf16", "weights_dtype = bfp_bf8"), flat, weight)


# --- the tracker counts wrong numbers as failures -----------------------------------------------------------------

@pytest.mark.tt
def test_a_tt_program_that_runs_and_does_not_match_is_an_incorrect_result_with_its_op_and_values(tmp_path):
    from ttbench.fleet import sweep
    from ttbench.fleet.track import triage

    b = _bringup(SqueezeExcite, 1, 3, 16, 16)
    wrong = _edited(b, "ttnn", lambda t: t.replace("activation = <op_type = relu>", "activation = <op_type = sigmoid>"))
    row = {"model": "se", "frontend": "export", "failed_stage": None, "run_ok": True,
           "stage_pcc": {"stablehlo": 1.0}, "stage_notes": {}}
    sweep._run_programs(wrong, row)
    assert row["stage_pcc"]["ttir"] >= 0.99999  # TTIR passes: the TTIR -> TTNN rewrite is the suspect
    wrong_numbers = row["incorrect"]
    assert wrong_numbers["stage"] == "ttnn" and wrong_numbers["earlier"] == "ttir"
    assert wrong_numbers["op"] == "ttnn.conv2d" and wrong_numbers["part"] == "after sigmoid"
    assert "test_tt_numbers.py" in wrong_numbers["location"] and "honoured" in wrong_numbers["verdict"]
    assert sweep.classify(row, {}) == "incorrect result"  # never "pass"
    row["verdict"], row["why"] = triage.verdict(row, None)
    (group,) = triage.group_rows([row])
    assert group.stage == "ttnn" and group.op == "ttnn.conv2d" and "first divergence" in group.example
    written = triage.write_divergence(wrong, wrong_numbers, str(tmp_path))
    assert {p.rsplit("/", 1)[-1] for p in written} == {"op.mlir", "values.npz", "divergence.json", "repro.py"}
    _fails_alone_with(tmp_path, wrong_numbers["op_pcc"])
    values = __import__("numpy").load(tmp_path / "values.npz")
    after = values["ttnn_value_after_sigmoid"].reshape(-1)
    assert torch.allclose(torch.from_numpy(after), torch.sigmoid(torch.from_numpy(values["ttnn_value"].reshape(-1))))
    assert "operand_0" in values and "ttir_value" in values
    assert "sigmoid" in (tmp_path / "op.mlir").read_text()


def _fails_alone_with(folder, stated_pcc: float) -> None:
    """repro.py run alone in a fresh process, from a copy of its folder elsewhere, with ttbench made unimportable:
    it fails with the stated PCC."""
    import shutil
    import subprocess
    import sys

    alone = folder.parent / (folder.name + "_alone")
    shutil.copytree(folder, alone)
    (alone / "ttbench.py").write_text("raise ImportError('the reproduction imported ttbench')\n")  # shadows it
    script = (alone / "repro.py").read_text()
    assert "ttbench" not in "".join(l for l in script.splitlines() if l.startswith(("import", "from")))
    done = subprocess.run([sys.executable, "repro.py"], cwd=alone, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"FAIL: PCC {stated_pcc:.6f}" in done.stdout, done.stdout


@pytest.mark.tt
def test_an_exported_stage_comparison_carries_a_reproduction_that_fails_alone(tmp_path):
    b = _bringup(SqueezeExcite, 1, 3, 16, 16)
    wrong = _edited(b, "ttnn", lambda t: t.replace("activation = <op_type = relu>", "activation = <op_type = sigmoid>"))
    comparison = wrong.compare_stages("ttir", "ttnn")
    d = comparison.first_divergence
    assert d is not None
    folder = wrong.export(str(tmp_path / "out"), report=comparison)
    repro = tmp_path / "out" / "repro"
    facts = __import__("json").loads((repro / "divergence.json").read_text())
    assert facts["repro"]["reproduces"] is True and facts["op"] == "ttnn.conv2d"
    assert "sigmoid" in (repro / "op.mlir").read_text() and "ttir." in (repro / "op.mlir").read_text()
    _fails_alone_with(repro, d.pcc)
    assert folder


@pytest.mark.tt
@pytest.mark.parametrize("model_cls, shape", [(SqueezeExcite, (1, 3, 16, 16)), (AveragePools, (1, 4, 8, 8)),
                                              (Conv1dNet, (2, 4, 16)), (Conv3dNet, (1, 4, 4, 6, 6))])
def test_every_single_op_program_the_compiler_emits_agrees_with_torch(model_cls, shape):
    """The differential check: each aten op of the model compiled alone by the real compiler, its TTNN program in
    the interpreter against PyTorch's own op (the independent reading) — with the attributes the compiler emits
    for it. A disagreement lists the op; none is tolerated."""
    b = _bringup(model_cls, *shape)
    report = b.op_by_op(device="tt", progress=False)
    interpreted = [r for r in report.rows if r.pcc_from and "interpreter" in r.pcc_from and r.pcc is not None]
    assert interpreted, report.summary()
    disagree = [(r.op, r.pcc, r.note) for r in interpreted if r.pcc < 0.999 or r.note]
    assert not disagree, disagree
