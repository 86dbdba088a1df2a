"""ttbench's interpreter of the Tenstorrent compiler's TTIR/TTNN programs, and per-op comparison across stages.

The zoo goes through the real Tenstorrent compiler (compile-only); edited programs check that what the interpreter
does not know, or a wrong attribute, is refused or caught exactly where it is. The handlers on handwritten programs
are test_handlers.py (no compiler needed)."""
import dataclasses
from collections import OrderedDict

import numpy as np
import pytest
import torch

import ttbench as tb

pytestmark = pytest.mark.tt  # the compiler's programs are the subject

ZOO = [m for m in tb.models.names() if not m.startswith("llama")]


@pytest.mark.parametrize("model", ZOO)
def test_zoo_ttir_and_ttnn_programs_match_pytorch(zoo_bringup, model):
    b = zoo_bringup(model, "export", "args", tt=True)
    assert b.ok, b.table()
    for stage in ("ttir", "ttnn"):
        r = b.run(stage, device="cpu")
        # The compiler may put an op in bf16 (resnet's max pool in TTNN): PCC holds, allclose may not, and the
        # result says so rather than passing.
        assert r.executed and (r.ok or "xbf16" in b.stages[stage].text), r
        assert r.device == f"cpu · {stage.upper()} semantics"
        assert "interpreter" in r.produced_by and "not the chip" in r.produced_by
        assert r.pcc >= 0.999, r
        assert r.golden == "torch eager" or "eager" in r.golden
    # Per op, nothing the compiler emitted diverges from StableHLO: every fusion (conv + batch norm, add + relu,
    # fused k/v projections) is matched or listed unmatched, never called a divergence.
    cmp = b.compare_stages("stablehlo", "ttnn")
    assert cmp.not_run is None and cmp.first_divergence is None, cmp.summary()
    # const-eval ops (computed once from the weights) have no run-time counterpart in StableHLO: listed as such
    run_time = [m for m in cmp.unmatched if "const-eval" not in m.reason]
    assert len(cmp.rows) > len(run_time)


def _edited(b, stage, edit):
    """A copy of bringup `b` whose `stage` text is `edit(text)` (the other stages shared)."""
    original = b.stages[stage]
    text = edit(original.full_text())
    assert text != original.full_text()
    stages = OrderedDict(b.stages)
    stages[stage] = dataclasses.replace(original, _full_text=lambda: text, _full_text_printed=None)
    return dataclasses.replace(b, stages=stages)


def _replace_nth(text, needle, n, new_line_fn):
    """`text` with the line holding the n-th occurrence of `needle` replaced by new_line_fn(line)."""
    lines = text.split("\n")
    seen = -1
    for i, line in enumerate(lines):
        if needle in line:
            seen += 1
            if seen == n:
                lines[i] = new_line_fn(line)
                return "\n".join(lines)
    raise AssertionError(f"no occurrence {n} of {needle}")


def test_unknown_op_kind_refuses_with_its_name_and_line(zoo_bringup):
    b = zoo_bringup("mlp", "export", "args", tt=True)
    ops = b.stages["ttnn"].ops
    k = [op for op in ops if op.name == "ttnn.matmul"].index(next(op for op in ops if op.name == "ttnn.matmul"
                                                                   and op.module == "fc2"))
    edited = _edited(b, "ttnn", lambda t: _replace_nth(t, '"ttnn.matmul"', k,
                                                        lambda line: line.replace('"ttnn.matmul"', '"ttnn.foo"')))
    r = edited.run("ttnn", device="cpu")
    assert not r.executed and r.pcc is None and not r.outputs
    assert "not run" in r.message and "does not know ttnn.foo" in r.message
    assert "loader.py:15" in r.message and "fc2" in r.message


def test_unknown_attribute_refuses(zoo_bringup):
    b = zoo_bringup("mlp", "export", "args", tt=True)
    edited = _edited(b, "ttnn", lambda t: t.replace("transpose_a = false", "transpose_a = false, swizzle = 3 : i32",
                                                    1))
    r = edited.run("ttnn", device="cpu")
    assert not r.executed and "attribute swizzle of ttnn.matmul" in r.message


def _flip_transpose_b(line):
    flag = "transpose_b = true" if "transpose_b = true" in line else "transpose_b = false"
    return line.replace(flag, "transpose_b = false" if flag.endswith("true") else "transpose_b = true")


def test_flipped_transpose_b_is_the_first_divergence(zoo_bringup):
    b = zoo_bringup("mlp", "export", "args", tt=True)
    ops = b.stages["ttnn"].ops
    matmuls = [op for op in ops if op.name == "ttnn.matmul"]
    target = next(op for op in matmuls if op.module == "fc2")  # 64x64 weight: flipping it still type-checks
    edited = _edited(b, "ttnn", lambda t: _replace_nth(t, '"ttnn.matmul"', matmuls.index(target),
                                                        _flip_transpose_b))
    clean = b.compare_stages("stablehlo", "ttnn")
    assert clean.not_run is None and clean.first_divergence is None and len(clean.rows) > 10, clean
    broken = edited.compare_stages("stablehlo", "ttnn")
    d = broken.first_divergence
    assert d is not None, broken
    assert d.op.index == target.index and d.op.name == "ttnn.matmul" and d.op.module == "fc2"
    assert d.pcc < 0.9 and "loader.py:15" in broken.summary()
    assert not edited.run("ttnn", device="cpu").ok


def test_compare_stages_over_every_pair_of_a_transformer(zoo_bringup):
    b = zoo_bringup("bert_tiny", "export", "args", tt=True)
    for a, c in [("stablehlo", "ttir"), ("ttir", "ttnn"), ("stablehlo", "ttnn"), ("torchfx", "ttnn")]:
        r = b.compare_stages(a, c)
        assert r.not_run is None, r
        assert r.first_divergence is None, r.summary()
        assert len(r.rows) > 50
        assert all(m.reference is not None and m.pcc is not None for m in r.rows)
        assert all(m.reference is None and m.reason for m in r.unmatched)
    with pytest.raises(tb.BadInput, match="does not come before"):
        b.compare_stages("ttnn", "stablehlo")


def test_stage_that_is_missing_or_failed_is_not_run(zoo_bringup):
    b = zoo_bringup("mlp")  # no TT stages
    with pytest.raises(tb.BadInput, match="no 'ttnn' stage"):
        b.run("ttnn", device="cpu")
    tt = zoo_bringup("mlp", "export", "args", tt=True)
    failed = dataclasses.replace(tt, stages=OrderedDict(tt.stages))
    failed.stages["ttnn"] = tb.core.Stage(name="ttnn", ok=False, error="ttnn: the compiler crashed")
    r = failed.run("ttnn", device="cpu")
    assert not r.executed and r.pcc is None and "did not compile" in r.message
    assert failed.compare_stages("stablehlo", "ttnn").not_run


def test_bf16_precision_rounds_every_result(zoo_bringup):
    b = zoo_bringup("mlp", "export", "args", tt=True)
    exact = b.run("ttnn", device="cpu")
    rounded = b.run("ttnn", device="cpu", precision="bf16")
    assert rounded.precision == "bf16" and rounded.executed
    assert 0.999 < rounded.pcc < exact.pcc
    assert rounded.outputs[0]["max_abs_error"] > 100 * exact.outputs[0]["max_abs_error"]
    with pytest.raises(tb.BadInput, match="precision"):
        b.run("stablehlo", device="cpu", precision="bf16")


def test_op_by_op_through_the_tt_compiler_carries_interpreted_pcc(zoo_bringup):
    b = zoo_bringup("mlp", "export", "args", tt=True)
    report = b.op_by_op(device="tt", progress=False)
    assert report.compile_only and report.ok
    assert report.rows and all(r.pcc_from and "interpreter" in r.pcc_from for r in report.rows)
    assert all(r.pcc is not None and r.pcc >= 0.999 and r.note is None for r in report.rows)
    assert f"{len(report.rows)} interpreted, 0 differ" in report.summary()
    assert "not the chip" in report.summary()


def test_gelu_that_lost_its_approximation_is_a_semantic_finding(zoo_bringup):
    b = zoo_bringup("gpt2_small", "export", "args", tt=True)
    found = b.findings.of("semantic")
    assert found, b.findings.counts()
    f = found[0]
    assert f.op == "ttnn.gelu" and f.stage == "ttnn" and f.location.short.startswith("activations.py")
    assert f.details["used"].startswith("erf") and f.details["matches"] == "tanh approximation"
    errors = f.details["readings"]
    assert errors[f.details["used"]] > 1e-5 > errors["tanh approximation"]
    assert "documented" in f.message
    assert not zoo_bringup("mlp", "export", "args", tt=True).findings.of("semantic")  # exact gelu: nothing


def test_stage_comparison_views_escape_and_overlay(zoo_bringup):
    from ttbench.render.model_explorer import overlays

    b = zoo_bringup("mlp", "export", "args", tt=True)
    cmp = b.compare_stages("ttir", "ttnn")
    page = cmp._repr_html_()
    assert "ttnn.matmul" in page and "<script" not in page and "◀ first divergence" not in page
    assert "no op diverges" in page
    data = overlays(b, "ttnn", cmp)["pcc vs ttir"]["ttnn"]["results"]
    assert set(data) == {str(m.op.index) for m in cmp.rows}
    assert all(0.999 <= v["value"] <= 1.0 for v in data.values())
    assert cmp.plot() is not None


TINY_LLAMA = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                  num_key_value_heads=2, vocab_size=256)


@pytest.mark.parametrize("variant", ["prefill", "decode"])
def test_tiny_llama_with_real_weights_runs_ttir_and_ttnn(variant):
    """rms_norm, repeat_interleave, rotary sin/cos; decode: the KV cache written in place (update_cache in TTIR,
    paged_update_cache in TTNN) at exactly the new token's position, the caller's cache tensors untouched."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        model, inputs = tb.models._loader("llama_8b").load(weights="random", variant=variant, **TINY_LLAMA)
    b = tb.bringup(model, inputs, progress=False)
    assert b.ok, b.table()
    before = [v.clone() for v in b.argument_values]
    for stage in ("ttir", "ttnn"):
        r = b.run(stage, device="cpu")
        assert r.executed and r.ok and r.pcc >= 0.999, r
        if variant == "decode":
            position = int(inputs[1][0])
            cache_in = inputs[2][:, :, position].numpy()
            written = r.arrays[0][:, :, position]
            assert not np.allclose(written, cache_in)  # the new token's slot changed ...
            assert np.allclose(written, r.golden_arrays[0][:, :, position], atol=1e-4)  # ... to what eager wrote
    assert all(torch.equal(a, b_) for a, b_ in zip(before, b.argument_values))


def test_cli_runs_the_interpreted_ttnn_and_compares_stages(tmp_path):
    import json
    import subprocess
    import sys

    out = tmp_path / "mlp"
    r = subprocess.run([sys.executable, "-m", "ttbench.cli", "bringup", "mlp", "--run", "cpu", "--stage", "ttnn",
                        "--compare", "stablehlo,ttnn", "--out", str(out)], capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, r.stderr
    assert "run: ttnn on cpu · TTNN semantics: ok" in r.stdout and "no op diverges" in r.stdout
    run = json.loads((out / "run.json").read_text())
    assert run["device"] == "cpu · TTNN semantics" and "interpreter" in run["produced_by"] and run["pcc"] > 0.999
    compared = json.loads((out / "stage_compare.json").read_text())
    assert compared["ok"] and compared["first_divergence"] is None and len(compared["ops"]) > 10
    for bad, says in [(["--stage", "ttnn"], "--stage picks the stage --run runs"),
                      (["--compare", "ttnn,stablehlo"], "--compare takes EARLIER,LATER"),
                      (["--run", "cpu", "--stage", "ttnn", "--no-tt"], "need the Tenstorrent stages")]:
        r = subprocess.run([sys.executable, "-m", "ttbench.cli", "bringup", "mlp", *bad], capture_output=True,
                           text=True, timeout=300)
        assert r.returncode == 2 and says in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_a_meta_weight_bringup_is_refused_never_given_a_pcc():
    from transformers import LlamaConfig, LlamaForCausalLM

    cfg = LlamaConfig(**TINY_LLAMA)
    cfg.use_cache = False
    with torch.device("meta"):
        model = LlamaForCausalLM(cfg).eval()
    b = tb.bringup(model, (torch.randint(0, 256, (1, 8)),), progress=False)
    assert b.stages["ttnn"].ok, b.table()
    for call in (lambda: b.run("ttnn", device="cpu"), lambda: b.compare_stages("stablehlo", "ttnn")):
        with pytest.raises(tb.BadInput, match="needs weight values"):
            call()
    assert not b.findings.of("semantic")


class _UpsampledByOutputPadding(torch.nn.Module):
    """A transposed conv with output_padding: the compiler writes it as an asymmetric 4-value padding."""

    def __init__(self):
        super().__init__()
        self.up = torch.nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1)

    def forward(self, x):
        return self.up(x)


def test_a_padding_order_the_ttnn_op_and_its_result_type_disagree_on_is_refused_not_blamed_on_ttbench():
    """tt-mlir writes conv_transpose2d's 4-value padding in TTIR's order (top, left, bottom, right) while ttnn reads
    (top, bottom, left, right): read as ttnn would, the op's own result type does not fit. No number, no
    'internal error': the run says which reading fits and which ttnn takes."""
    torch.manual_seed(0)
    b = tb.bringup(_UpsampledByOutputPadding().eval(), (torch.randn(1, 8, 6, 6),), progress=False)
    if not b.stages["ttnn"].ok:
        pytest.skip(f"no TTNN stage here: {b.stages['ttnn'].error}")
    op = next(o for o in b.stages["ttnn"].ops if o.name == "ttnn.conv_transpose2d")
    if "padding = array<i32: 1, 1, 0, 0>" not in op.text:
        pytest.skip(f"this compiler writes the padding another way: {op.text[:300]}")
    result = b.run("ttnn")
    assert not result.ok and result.pcc is None
    assert "internal error" not in result.message, result.message
    assert "top, bottom, left, right" in result.message and "top, left, bottom, right" in result.message, \
        result.message
    assert b.run("ttir").pcc > 0.9999  # TTIR's order is its own: that stage runs
