"""The spine: every frontend reaches stablehlo through the real torch-mlir, with the user's source lines."""
import os
import re
import subprocess
import time

import pytest
import torch

import ttbench as tb
from ttbench.ir.text import parse_ops

MLP_FILE = os.path.join(tb.models.ZOO_DIR, "mlp", "loader.py")
FRONTENDS = ["export", "dynamo", "onnx"]


def _located_in(stage, filename):
    return [op for op in stage.ops if op.location and op.location.file.endswith(filename)]


@pytest.mark.parametrize("frontend", FRONTENDS)
def test_mlp_reaches_stablehlo_with_source_lines(zoo_bringup, frontend):
    b = zoo_bringup("mlp", frontend)
    assert list(b.stages) == [("onnx" if frontend == "onnx" else "fx"), "torchfx", "stablehlo"]
    for stage in b.stages.values():
        assert stage.ok, stage.error
        assert stage.ops, stage.name
    for name in ("torchfx", "stablehlo"):
        located = _located_in(b.stages[name], "loader.py")
        assert located, f"{name}: no op located in the model's source"
        assert {op.location.file for op in located} == {MLP_FILE}
        # forward() of the MLP spans lines 14-16; every located op must land there.
        assert {op.location.line for op in located} <= {14, 15, 16}
    names = {op.name for op in b.stages["stablehlo"].ops}
    assert "stablehlo.dot_general" in names or "stablehlo.dot" in names


@pytest.mark.slow
@pytest.mark.parametrize("frontend", FRONTENDS)
def test_hf_bert_reaches_stablehlo_with_modeling_file_lines(zoo_bringup, frontend):
    b = zoo_bringup("bert_tiny", frontend)
    assert b.stages["stablehlo"].ok, b.stages["stablehlo"].error
    located = _located_in(b.stages["stablehlo"], "modeling_bert.py")
    assert len(located) > 20
    # torch-dialect ops of the model's code point at modeling_bert.py (scalar scaffolding may have none)
    assert len(_located_in(b.stages["torchfx"], "modeling_bert.py")) > 20


def _weight_shaped_constants(stage):
    """Constants whose type is one of the MLP's weight matrices."""
    weight_types = ("tensor<64x32xf32>", "tensor<64x64xf32>", "tensor<10x64xf32>", "[64,32],f32", "[64,64],f32")
    return [op for op in stage.ops if ("constant" in op.name.lower() or "literal" in op.name)
            and any(t in op.text for t in weight_types)]


@pytest.mark.parametrize("frontend", FRONTENDS)
def test_params_inline_embeds_weights_args_does_not(zoo_bringup, frontend):
    inline = zoo_bringup("mlp", frontend, "inline")
    args = zoo_bringup("mlp", frontend, "args")
    for name in ("torchfx", "stablehlo"):
        assert _weight_shaped_constants(inline.stages[name]), f"{frontend}/{name}: inline shows no weight constants"
        assert not _weight_shaped_constants(args.stages[name]), f"{frontend}/{name}: args still embeds weights"
    roles = [a.role for a in args.arguments]
    assert roles.count("parameter") == 6 and roles.count("input") == 1
    assert [a.role for a in inline.arguments] == ["input"]
    # the recorded order is the function's: the stablehlo signature has one argument per ArgInfo
    sig = re.search(r"func\.func @main\((.*?)\) ->", args.stages["stablehlo"].text).group(1)
    assert sig.count("%arg") == len(args.arguments)


def test_weights_are_elided_in_text_but_present_in_full_ir(zoo_bringup):
    b = zoo_bringup("mlp", "export", "inline")
    st = b.stages["stablehlo"]
    full = st.full_text()
    assert not re.search(r"[0-9A-Fa-f]{200}", st.text), "weight bytes printed in the readable text"
    assert re.search(r"[0-9A-Fa-f]{200}", full) and len(full) > 5 * len(st.text)
    assert len(parse_ops(full)) == len(st.ops)


@pytest.mark.slow
def test_resnet50_stablehlo_prints_small(zoo_bringup):
    b = zoo_bringup("resnet50", "export", "args")
    st = b.stages["stablehlo"]
    assert st.ok, st.error
    assert len(st.text.encode()) < 1_000_000
    assert sum(1 for op in st.ops if op.name == "stablehlo.convolution") == 53


@torch.library.custom_op("ttbench_test::mystery", mutates_args=())
def _mystery(x: torch.Tensor) -> torch.Tensor:
    return x * 2


@_mystery.register_fake
def _(x):
    return torch.empty_like(x)


class Unlowerable(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        y = torch.relu(self.fc(x))
        return torch.ops.ttbench_test.mystery(y)  # torch-mlir has no lowering for this op


def test_unlowerable_op_keeps_earlier_stages_and_names_the_stage():
    b = tb.bringup(Unlowerable(), (torch.randn(2, 8),), tt=True)
    assert b.stages["fx"].ok and b.stages["torchfx"].ok
    assert any(op.name == "ttbench_test.mystery.default" for op in b.stages["fx"].ops)
    st = b.stages["stablehlo"]
    assert not st.ok and st.error.startswith("stablehlo:")
    assert "ttbench_test.mystery" in st.error and "test_capture.py" in st.error
    assert b.stages["ttir"].error == "skipped: stablehlo failed"
    assert b.stages["ttnn"].error == "skipped: stablehlo failed"
    with pytest.raises(RuntimeError, match="stablehlo"):
        tb.bringup(Unlowerable(), (torch.randn(2, 8),), tt=False, strict=True)


class TwoBigLayers(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = torch.nn.Linear(4096, 4096), torch.nn.Linear(4096, 4096)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)))  # LINE_BIG


def test_a_lowering_out_of_memory_says_so_and_names_the_largest_tensors(monkeypatch):
    """Issue 29, item 9: a pass that ran out of memory named no op, no pass and no line ("crashed (SIGABRT)").
    TTBENCH_MLIR_WORKER_FAULT=memory:TEXT lets that pipeline map only 64 MiB more: its real allocations fail."""
    monkeypatch.setenv("TTBENCH_MLIR_WORKER_FAULT", "memory:StableHLO")
    b = tb.bringup(TwoBigLayers(), (torch.randn(2, 4096),), params="inline", tt=False)
    assert b.stages["torchfx"].ok
    error = b.stages["stablehlo"].error
    assert error.startswith("stablehlo: torch-mlir ran out of memory") and "Torch Backend IR -> StableHLO" in error
    line = next(i for i, text in enumerate(open(__file__), 1) if text.rstrip().endswith("# LINE_BIG"))
    largest = next(text for text in error.splitlines() if "largest results" in text)
    assert "64.0 MiB" in largest and f"test_capture.py:{line}" in largest, error
    assert "hoist" in error.splitlines()[-1]


def test_a_hung_pass_pipeline_is_the_stages_error_not_a_hung_bringup(monkeypatch):
    # TTBENCH_MLIR_WORKER_FAULT=hang:TEXT makes the pass worker hang in the pipeline whose description holds TEXT, as
    # a pass stuck in a loop would; the wait on it has a deadline (TTBENCH_PASS_TIMEOUT) and the worker is killed.
    import psutil

    monkeypatch.setenv("TTBENCH_MLIR_WORKER_FAULT", "hang:StableHLO")
    monkeypatch.setenv("TTBENCH_PASS_TIMEOUT", "3")
    m, x = tb.models.load("mlp")
    t0 = time.perf_counter()
    b = tb.bringup(m, x, tt=False)
    assert time.perf_counter() - t0 < 60
    assert b.stages["fx"].ok and b.stages["torchfx"].ok
    st = b.stages["stablehlo"]
    assert not st.ok and st.error.startswith("stablehlo:") and "did not finish in 3 s" in st.error, st.error
    assert "TTBENCH_PASS_TIMEOUT" in st.error
    hung = [c for c in psutil.Process().children(recursive=True)
            if any("mlir_worker.py" in part for part in c.cmdline()) and c.status() != psutil.STATUS_ZOMBIE]
    assert not hung, hung  # killed, not left running


class ConvBnUpsample(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv, self.bn = torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8)
        self.bn.running_mean.uniform_(-1, 1)  # statistics that matter: folding them wrongly would show
        self.bn.running_var.uniform_(0.5, 2)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        return torch.nn.functional.interpolate(y, size=(16, 16), mode="bilinear")


@pytest.mark.tt  # its assertions need the Tenstorrent compiler's stages
def test_dynamo_brings_batch_norm_and_bilinear_upsampling_to_ttnn():
    # make_fx left native_batch_norm (empty saved statistics: tensor<8xf32> -> tensor<0xf32>) and
    # upsample_bilinear2d.default (no StableHLO lowering) in the graph: every CNN failed through dynamo.
    b = tb.bringup(ConvBnUpsample(), (torch.randn(1, 3, 8, 8),), frontend="dynamo")
    assert b.ok, b.table()
    assert b.stages["ttnn"].ops
    result = b.run()
    assert result.ok and result.pcc > 0.9999, result


class SetsUpOnFirstCall(torch.nn.Module):
    """Like transformers' output capturing: setup under a lock on the first call only."""
    _lock = __import__("threading").Lock()

    def __init__(self):
        super().__init__()
        self.fc, self.ready = torch.nn.Linear(4, 4), False

    def forward(self, x):
        if not self.ready:
            with self._lock:  # dynamo cannot trace a lock: "Unsupported context manager"
                self.ready = True
        return self.fc(x)


def test_dynamo_captures_a_model_that_sets_itself_up_on_its_first_call():
    b = tb.bringup(SetsUpOnFirstCall(), (torch.randn(2, 4),), frontend="dynamo", tt=False)
    assert b.ok, b.table()


class Resize(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.interpolate(x, size=(16, 16), mode="bilinear")  # the line the error names


def test_leftover_torch_op_names_the_onnx_node_and_the_source_line():
    b = tb.bringup(Resize(), (torch.randn(1, 3, 8, 8),), frontend="onnx", tt=False)
    error = b.stages["stablehlo"].error
    assert "ONNX node node_upsample_bilinear2d (Resize)" in error, error
    line = next(i for i, text in enumerate(open(__file__), 1) if "the line the error names" in text)
    assert f"test_capture.py:{line}" in error, error


class RaisesOnOddBatches(torch.nn.Module):
    def forward(self, x):
        if x.shape[0] % 2:
            raise ValueError(f"batch {x.shape[0]} is odd")  # the line the error must name
        return x * 2


def test_an_onnx_export_failure_names_its_root_cause_not_the_exporters_banner():
    # The exporter wraps the cause ("No ONNX function found for <the op>") in a generic "Failed to convert the
    # exported program..." with terminal colour codes; the stage's error must say which op, in plain text.
    @torch.library.custom_op("ttbench_test::no_onnx_function", mutates_args=())
    def no_onnx_function(x: torch.Tensor) -> torch.Tensor:
        return x * 2

    @no_onnx_function.register_fake
    def _(x):
        return torch.empty_like(x)

    class M(torch.nn.Module):
        def forward(self, x):
            return no_onnx_function(x) + 1

    b = tb.bringup(M(), torch.randn(3), frontend="onnx", tt=False, progress=False)
    error = b.stages["onnx"].error
    assert "no_onnx_function" in error and "No ONNX function found" in error, error
    assert "\x1b[" not in error


def test_a_torch_export_failure_names_its_cause_not_the_banner_that_follows_it():
    # torch.export ends its message with "The following call raised this error:" and "The error above occurred
    # when calling torch.export.export..."; the stage's error is the cause (the tracker grouped four models by the
    # banner)
    class DataDependent(torch.nn.Module):
        def forward(self, x):
            n = int((x > 0).sum())
            return x[:n] * 2 if n == 1 else x * 3

    b = tb.bringup(DataDependent(), torch.randn(4), tt=False, progress=False)
    error = b.stages["fx"].error
    assert "data-dependent expression" in error, error
    assert "The following call" not in error and "The error above" not in error


def test_a_forward_that_raises_is_named_as_the_model_at_its_line():
    """Issue 29, item 2: the model's own exception was told as "the example inputs do not fit the model", with no
    line of the user's code; now it names the model, the exception, the file and line and its code."""
    line = RaisesOnOddBatches.forward.__code__.co_firstlineno + 2
    with pytest.raises(tb.BadInput) as raised:
        tb.bringup(RaisesOnOddBatches(), (torch.randn(3, 4),), tt=False)
    assert str(raised.value) == (f"the model raised ValueError: batch 3 is odd at test_capture.py:{line} "
                                 f"(`raise ValueError(f\"batch {{x.shape[0]}} is odd\")  # the line the error must "
                                 f"name`) when run on the example inputs: fix the model or its inputs")
    # an error inside torch is still placed at the user's line that called into it
    model, _ = tb.models.load("mlp")
    with pytest.raises(tb.BadInput, match=r"the model raised RuntimeError: mat1 and mat2 shapes cannot be multiplied "
                                          r"\(4x7 and 32x64\) at loader.py:14 \(`x = torch.nn.functional.gelu"):
        tb.bringup(model, (torch.randn(4, 7),), tt=False)


def test_inputs_that_do_not_fit_are_bad_input():
    model, _ = tb.models.load("mlp")
    with pytest.raises(tb.BadInput, match="the model raised"):
        tb.bringup(model, (torch.randn(4, 7),), tt=False)
    with pytest.raises(tb.BadInput, match="frontend"):
        tb.bringup(model, (torch.randn(4, 32),), frontend="torchscript")


def test_onnx_file_is_never_written_into_the_repo(zoo_bringup):
    zoo_bringup("mlp", "onnx", "inline")
    repo = os.path.dirname(tb.models.ZOO_DIR)
    found = subprocess.run(["git", "ls-files", "--others", "--cached", "--exclude-standard", "--", "*.onnx"], cwd=repo,
                           capture_output=True, text=True).stdout.split()
    on_disk = [os.path.join(d, f) for d, _, fs in os.walk(repo) if ".venv" not in d for f in fs if f.endswith(".onnx")]
    assert found == [] and on_disk == []


def test_framework_frames_are_recognised_from_another_machine():
    from ttbench.ir.locations import is_user_file

    assert not is_user_file("/elsewhere/.venv/lib/python3.11/site-packages/torch/nn/modules/linear.py")
    assert not is_user_file("/usr/lib/python3/dist-packages/torch_mlir/extras/fx_importer.py")
    assert is_user_file("/elsewhere/.venv/lib/python3.11/site-packages/transformers/models/bert/modeling_bert.py")
    assert is_user_file("/home/me/project/torchvision_like/model.py")


@pytest.mark.tt  # its assertions need the Tenstorrent compiler's stages
@pytest.mark.parametrize("frontend", FRONTENDS)
def test_every_stage_knows_the_module_each_op_came_from(zoo_bringup, frontend):
    """One source line of a library model runs in many modules (each BertLayer's query projection is the same
    line): the module path is what tells them apart, and it must survive each lowering into TTNN."""
    b = zoo_bringup("bert_tiny", frontend, tt=True)
    query = "encoder.layer.1.attention.self.query"
    for name, stage in b.stages.items():
        assert stage.ok, stage.error
        in_query = [op for op in stage.ops if op.module == query]
        assert in_query, f"{name}: no op from {query}"
        assert any(op.module == "encoder.layer.0.attention.self.query" for op in stage.ops), name
    # ttir/ttnn ops the Tenstorrent compiler derived (`module[...]_in_0_layout`) keep the path, never a suffix
    modules = {op.module for s in b.stages.values() for op in s.ops if op.module}
    assert all(m == "" or m.split(".")[0] in {"embeddings", "encoder", "pooler"} for m in modules), modules
    assert not any("_layout" in m or "_decomp" in m for m in modules)


def test_module_names_are_read_from_printed_locations_too():
    from ttbench.ir.locations import LocTable

    table = LocTable(
        '#loc1 = loc("m.py":3:0)\n#loc2 = loc("module[layer.0.fc]_in_0_layout"(#loc1))\n')
    assert table.module("#loc2") == "layer.0.fc" and [f.line for f in table.frames("#loc2")] == [3]
    assert table.module('"node_Gemm_3"(#loc1)') is None  # an ONNX node name is not a module
    ops = parse_ops('func.func @main() {\n  %0 = ttir.empty() : tensor<1xf32> loc(#loc2)\n}\n'
                    '#loc1 = loc("m.py":3:0)\n#loc2 = loc("module[features.3]"(#loc1))\n')
    assert [op.module for op in ops] == ["features.3"]


class LSTMModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(4, 4, batch_first=True)

    def forward(self, x):
        return self.lstm(x)[0]


class InPlaceSlice(torch.nn.Module):
    def forward(self, x):
        y = x * 2
        y[:, 0] += 1
        return y.relu_()


def test_stage_errors_keep_the_upstream_hint_the_users_line_the_pass_and_a_next_step():
    """Issue 29, item 9: compiler messages kept only their first line, dropping what they say to do."""
    lstm = tb.bringup(LSTMModel(), (torch.randn(1, 3, 4),), frontend="dynamo", tt=False)
    line = LSTMModel.forward.__code__.co_firstlineno + 1
    headline, *notes = lstm.stages["fx"].error.splitlines()
    assert headline == f"fx: Attempted to wrap RNN, GRU, or LSTM (at test_capture.py:{line})"
    assert "upstream hint: Set torch._dynamo.config.allow_rnn=True" in notes[0]
    assert not any("report an issue" in n.lower() for n in notes)
    inplace = tb.bringup(InPlaceSlice(), (torch.randn(2, 4),), frontend="dynamo", tt=False)
    failed = next(s for s in inplace.stages.values() if not s.ok)
    headline, *notes = failed.error.splitlines()
    assert "'torch.aten." in headline and "_.Tensor' op" in headline and "test_capture.py:" in headline
    assert any(n.strip().startswith("in the pass pipeline 'Lowering TorchFX IR -> Torch Backend IR'") for n in notes)
    assert any("functionalize=True" in n for n in notes)
    fixed = tb.bringup(InPlaceSlice(), (torch.randn(2, 4),), frontend="dynamo", tt=False, functionalize=True)
    assert fixed.stages["stablehlo"].ok  # the next step it names works


class Diagonal(torch.nn.Module):
    def forward(self, x):
        return torch.einsum("bii->bi", x)


def test_a_constant_the_compiler_could_not_convert_is_named_by_the_op_that_uses_it():
    """Issue 29, item 9: torch-mlir says "failed to legalize operation 'torch.constant.int'" when the op using the
    constant (here einsum's aten.diagonal) has no lowering; the error now leads with that op."""
    b = tb.bringup(Diagonal(), (torch.randn(2, 4, 4),), tt=False)
    line = f"test_capture.py:{Diagonal.forward.__code__.co_firstlineno + 1}"
    headline = b.stages["stablehlo"].error.splitlines()[0]
    assert headline == (f"stablehlo: torch.aten.diagonal at {line} was not lowered (torch-mlir names only an operand "
                        f"it could not convert: failed to legalize operation 'torch.constant.int')"), headline


class _KeywordModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(10, 8)
        self.fc = torch.nn.Linear(8, 4)

    def forward(self, input_ids, attention_mask=None, *, scale):
        return self.fc(self.emb(input_ids) * attention_mask.unsqueeze(-1)) * scale


KEYWORD_INPUTS = {"input_ids": torch.tensor([[1, 2, 3], [4, 5, 0]]), "attention_mask": torch.tensor([[1., 1, 0], [1, 1, 1]]),
                  "scale": torch.tensor(2.0)}


@pytest.mark.parametrize("frontend", FRONTENDS)
def test_inputs_by_name_reach_forward_keyword_only_ones_included(frontend):
    model = _KeywordModel()
    b = tb.bringup(model, KEYWORD_INPUTS, frontend=frontend, tt=False)
    assert all(s.ok for s in b.stages.values()), [s.error for s in b.stages.values()]
    assert b.run("stablehlo").ok  # against the model called with the same keywords
    inputs = [a.name for a in b.arguments if a.role == "input"]
    if frontend != "dynamo":  # dynamo names its placeholders after the wrapper's locals
        assert inputs == list(KEYWORD_INPUTS)
    assert "forward" not in vars(model)  # the user's model is left as it was


@pytest.mark.parametrize("inputs, says", [
    ({"input_ids": KEYWORD_INPUTS["input_ids"], "scale": torch.tensor(1.0), "mask": torch.ones(2, 3)},
     "input 'mask': _KeywordModel.forward has no argument of that name (it takes: input_ids, attention_mask, scale)"),
    ({"input_ids": KEYWORD_INPUTS["input_ids"]}, "_KeywordModel.forward needs 'scale'"),
    ({"input_ids": [1, 2], "scale": torch.tensor(1.0)}, "input 'input_ids' must be a torch.Tensor, got list"),
])
def test_inputs_by_name_that_do_not_fit_forward_are_one_line_bad_input(inputs, says):
    with pytest.raises(tb.BadInput) as err:
        tb.bringup(_KeywordModel(), inputs, tt=False)
    assert says in str(err.value) and "\n" not in str(err.value)
