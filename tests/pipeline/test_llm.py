"""LLMs on the meta device (issue 17): compiled from shapes, weights never materialised, run once given weights."""
import json
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch
from transformers import LlamaConfig, LlamaForCausalLM

import ttbench as tb

pytestmark = pytest.mark.tt  # the TT stages of meta-weight LLMs are the subject


def tiny_config(**overrides) -> LlamaConfig:
    cfg = LlamaConfig(**{**dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                                num_key_value_heads=2, vocab_size=256), **overrides})
    cfg.use_cache = False
    return cfg


def meta_twin(cfg):
    with torch.device("meta"):
        return LlamaForCausalLM(cfg).eval()


def real_weights(cfg):
    """A seeded model with real weights and its tensors by name (buffers too: rotary inv_freq is not saved)."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        model = LlamaForCausalLM(cfg).eval()
    return model, {**dict(model.state_dict()), **dict(model.named_buffers())}


def test_a_meta_llama_reaches_ttnn_and_no_weight_storage_is_ever_allocated():
    """2 layers of width 4096 and a 128256 vocabulary: 6.0 GB of fp32 weights if anything materialised them. The
    bringup (capture, import, lowering, the TT compile in its worker) runs in a child whose peak RSS is measured."""
    script = textwrap.dedent("""
        import json, resource, sys, torch
        from transformers import LlamaConfig, LlamaForCausalLM
        import ttbench as tb
        cfg = LlamaConfig(hidden_size=4096, intermediate_size=14336, num_hidden_layers=2, num_attention_heads=32,
                          num_key_value_heads=8, vocab_size=128256)
        cfg.use_cache = False
        with torch.device("meta"):
            model = LlamaForCausalLM(cfg)
        weight_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
        b = tb.bringup(model, (torch.randint(0, 128256, (1, 32)),))
        b.findings
        print(json.dumps({"stages": {n: s.ok for n, s in b.stages.items()}, "weight_bytes": weight_bytes,
                          "all_meta": all(p.is_meta for p in model.parameters()),
                          "missing": len(b.missing_values()),
                          "self_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6,
                          "children_gb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1e6}))
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["stages"] == {"fx": True, "torchfx": True, "stablehlo": True, "ttir": True, "ttnn": True}, out
    assert out["weight_bytes"] > 5.5e9 and out["all_meta"] and out["missing"] > 0
    # The process with torch, torch-mlir and transformers loaded peaks at 0.6-1.6 GB (more when the machine is
    # busy); the weights alone would be 6.0 GB.
    assert out["self_gb"] < 3 and out["children_gb"] < 3, out


def test_meta_bringup_runs_once_given_weights_and_matches_the_real_model(tmp_path):
    cfg = tiny_config()
    real, weights = real_weights(cfg)
    ids = torch.randint(0, cfg.vocab_size, (1, 16), generator=torch.Generator().manual_seed(1))
    b = tb.bringup(meta_twin(cfg), (ids,), tt=False)
    assert b.ok, b.table()
    with pytest.raises(tb.BadInput, match="needs weight values.*meta device.*weights="):
        b.run()
    with pytest.raises(tb.BadInput, match="op by op needs weight values"):
        b.op_by_op()
    missing = dict(weights)
    del missing["model.norm.weight"]
    with pytest.raises(tb.BadInput, match="lacks 1 of the .*model.norm.weight"):
        b.run(weights=missing)
    wrong = {**weights, "lm_head.weight": weights["lm_head.weight"].double()}
    with pytest.raises(tb.BadInput, match="lm_head.weight .* is 256x64 float64, the graph was compiled for 256x64 float32"):
        b.run(weights=wrong)
    assert b.missing_values(), "a refused load must leave the bringup as it was"

    result = b.run(weights=weights)
    assert result.ok and "meta device" in result.golden, result.message
    with torch.no_grad():
        expected = real(ids).logits.numpy()
    np.testing.assert_allclose(result.arrays[0], expected, rtol=1e-4, atol=1e-4)  # the model's own numbers

    from safetensors.torch import save_file

    path = tmp_path / "weights.safetensors"
    save_file({k: v.contiguous() for k, v in weights.items()}, str(path))
    again = tb.bringup(meta_twin(cfg), (ids,), tt=False)
    report = again.op_by_op(weights=str(path), progress=False)
    assert report.rows and not report.failed(), report.summary()
    assert again.run().ok
    with pytest.raises(tb.BadInput, match="already has every weight's values"):
        again.run(weights=weights)  # never silently ignored, never silently swapped in


def test_what_needs_values_is_refused_before_any_work():
    model = meta_twin(tiny_config())
    ids = torch.randint(0, 256, (1, 8))
    for kwargs, said in ((dict(frontend="dynamo"), "frontend='dynamo' runs the model"),
                         (dict(frontend="onnx"), "frontend='onnx' runs the model"),
                         (dict(params="inline"), "params='inline' puts the weights' values"),
                         (dict(hoist=dict(min_numel=16)), "hoist moves constant values")):
        with pytest.raises(tb.BadInput, match=said):
            tb.bringup(model, (ids,), **kwargs)


def test_zoo_llama_entries_are_built_on_meta_with_the_real_shapes():
    model, (ids,) = tb.models.load("llama_8b")
    assert all(p.is_meta for p in model.parameters()) and not ids.is_meta
    assert round(sum(p.numel() for p in model.parameters()) / 1e9, 2) == 8.03
    model, _ = tb.models.load("llama_70b")
    assert round(sum(p.numel() for p in model.parameters()) / 1e9, 1) == 70.6
    mlp, inputs = tb.models.load("mlp", weights="meta")  # a loader without a weights parameter: built under meta
    assert all(p.is_meta for p in mlp.parameters())
    with pytest.raises(tb.BadInput, match="unknown weights mode 'zero'"):
        tb.models.load("mlp", weights="zero")


def test_cli_refuses_to_run_a_meta_model_without_weights_before_any_work(tmp_path):
    r = subprocess.run([sys.executable, "-m", "ttbench.cli", "bringup", "llama_8b", "--run", "cpu",
                        "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "--run needs weight values, and llama_8b is built on the meta device" in r.stderr
    assert not os.path.exists(tmp_path / "out")


def test_sweep_takes_a_meta_model_through_export_and_marks_the_other_frontends_not_applicable(tmp_path):
    zoo = tmp_path / "zoo" / "tiny_llama"
    zoo.mkdir(parents=True)
    (zoo / "README.md").write_text("# tiny_llama\nA 2-layer Llama built on meta.\n")
    (zoo / "loader.py").write_text(textwrap.dedent("""
        import torch
        from transformers import LlamaConfig, LlamaForCausalLM
        DEFAULT_WEIGHTS = "meta"
        def load(weights=DEFAULT_WEIGHTS):
            cfg = LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                              num_key_value_heads=2, vocab_size=256)
            cfg.use_cache = False
            with torch.device("meta" if weights == "meta" else "cpu"):
                model = LlamaForCausalLM(cfg)
            return model, (torch.randint(0, 256, (1, 8)),)
    """))
    r = subprocess.run([sys.executable, "-m", "ttbench.cli", "sweep", "--models", "tiny_llama", "--frontends",
                        "export,dynamo,onnx", "--no-tt", "--out", str(tmp_path / "out")], capture_output=True,
                       text=True, timeout=600, env=dict(os.environ, TTBENCH_MODELS=str(tmp_path / "zoo")))
    assert r.returncode == 0, r.stdout + r.stderr
    rows = {row["frontend"]: row for row in json.loads((tmp_path / "out" / "status.json").read_text())["rows"]}
    assert rows["export"]["status"] == "pass" and rows["export"]["furthest"] == "stablehlo"
    assert rows["export"]["pcc"] is None  # no weights: nothing ran, and nothing claims it did
    assert rows["dynamo"]["status"] == rows["onnx"]["status"] == "not applicable"
    assert "only torch.export traces it" in (tmp_path / "out" / "status.md").read_text()


def test_find_repeat_finds_the_run_of_identical_blocks_and_nothing_in_distinct_ops():
    from ttbench.analysis.repeats import find_repeat
    from ttbench.core import Op, SourceLoc

    def op(i, name, line):
        return Op(i, name, SourceLoc("model.py", line), text=f"%v{i} = {name} %v{i - 1} : tensor<4x{line}xf32>")

    prologue = [("embed", 1), ("cast", 2)]
    block = [(f"op{k}", 10 + k) for k in range(9)]
    epilogue = [("norm", 40), ("head", 41)]
    names = prologue + block * 5 + epilogue
    ops = [op(i, n, line) for i, (n, line) in enumerate(names)]
    r = find_repeat(ops)
    assert (r.start, r.length, r.count) == (2, 9, 5)
    assert r.folded(2 + 9) and not r.folded(2 + 8) and r.twin(2 + 9 * 3 + 4) == 2 + 4
    assert find_repeat([op(i, f"op{i}", i) for i in range(60)]) is None


def test_repeated_layers_are_folded_in_the_view_and_the_findings(tmp_path):
    layers = 6
    b = tb.bringup(meta_twin(tiny_config(num_hidden_layers=layers)), (torch.randint(0, 256, (1, 8)),))
    assert b.ok, b.table()
    repeats = b.findings.repeats
    assert repeats["fx"].count == repeats["torchfx"].count == layers  # as written: one decoder layer, 6 times
    assert all(repeats[s].count >= layers - 1 for s in ("stablehlo", "ttir", "ttnn"))  # CSE may change layer 0
    page = tmp_path / "report.html"
    b.save_html(str(page))
    text = page.read_text()
    r = repeats["torchfx"]
    assert f"×{r.count - 1} more of the block above" in text and f"{r.length} × {r.count} repeated" in text
    pane = text[text.index("stage-torchfx'><h3>"):]
    pane = pane[:pane.index("</section>")]
    drawn = {int(n) for n in re.findall(r"class='ln'[^>]*>(\d+)<", pane)}
    assert r.start in drawn and r.end - 1 not in drawn  # folded: not in the page ...
    assert len(b.stages["torchfx"].ops) > r.end - 1  # ... but still in the stage (and its exported text)


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = torch.nn.Linear(16, 16), torch.nn.Linear(16, 16)

    def forward(self, x):
        y = self.a(x)
        y.relu_()  # an in-place op in every block: one finding per block
        y = torch.tanh(self.b(y) * 0.5 + x)
        return torch.sigmoid(y) * y - x


def test_a_finding_repeated_in_every_block_is_listed_once_with_its_count():
    blocks = 5
    model = torch.nn.Sequential(*[Block() for _ in range(blocks)])
    b = tb.bringup(model, (torch.randn(2, 16),), frontend="dynamo", tt=False)
    inplace = b.findings.of("inplace", "fx")
    assert len(inplace) == blocks and b.findings.repeats["fx"].count == blocks
    folded = [(f, n) for f, n in b.findings.folded() if f.kind == "inplace" and f.stage == "fx"]
    assert [n for _, n in folded] == [blocks]
    assert sum(n for _, n in b.findings.folded()) == len(b.findings)  # folded, never dropped


TINY = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
            vocab_size=256)


def test_a_decode_step_updates_its_cache_arguments_in_place_and_says_so():
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        step, inputs = tb.models._loader("llama_8b").load(weights="random", variant="decode", **TINY)
    b = tb.bringup(step, inputs)
    assert b.ok, b.table()
    roles = {a.name: a.role for a in b.arguments}
    assert [roles[f"caches_{i}"] for i in range(4)] == ["cache"] * 4 and roles["input_ids"] == "input"
    assert "caches_0" not in b.weights()  # a cache is fed like an input, never saved or inlined as a weight
    found = b.findings.of("inplace", "fx")
    updates = [f for f in found if "updated in place by aten.index_copy_" in f.message]
    assert len(updates) == 4  # one per cache; the code's other in-place ops (add_) are told as functionalized
    assert all("functionalized by torch.export" in f.message for f in found if f not in updates)
    handed = b.stages["ttir"].artifacts["ttir.input.stablehlo.mlir"]
    assert 'ttcore.argument_type = "input", ttir.name = "caches_0"' in handed  # what tt-mlir is told
    result = b.run()
    assert result.ok and len(result.arrays) == 5, result.message  # 4 updated caches, then the logits
    # The golden's caches are the eager model's, after its own in-place update: the new token's slot changed.
    position = int(inputs[1][0])
    assert not np.allclose(result.golden_arrays[0][:, :, position], inputs[2][:, :, position].numpy())
    report = b.op_by_op(progress=False)
    assert report.rows and not report.failed(), report.summary()


def test_zoo_variants():
    step, inputs = tb.models.load("llama_8b:decode")
    assert inputs[0].shape == (1, 1) and len(inputs) == 2 + 2 * 32
    assert all(p.is_meta for p in step.parameters()) and not any(x.is_meta for x in inputs)
    with pytest.raises(tb.BadInput, match="llama_8b has no variant 'train': choose one of prefill, decode"):
        tb.models.load("llama_8b:train")
    with pytest.raises(tb.BadInput, match="mlp has no variant 'decode'"):
        tb.models.load("mlp:decode")


def test_export_keeps_tied_weights(tmp_path):
    """Tied weights (an LM head sharing the embedding) are one tensor under two names: safetensors refuses shared
    memory, and the export must still write both names (it used to fail at the end, the folder lost)."""
    from safetensors.torch import load_file

    cfg = tiny_config(tie_word_embeddings=True)
    model, _ = real_weights(cfg)
    b = tb.bringup(model, (torch.randint(0, cfg.vocab_size, (1, 8)),), tt=False)
    saved = load_file(str(tmp_path / "out" / "weights.safetensors")) if b.export(str(tmp_path / "out")) else {}
    tied = [n for n in saved if n.endswith("embed_tokens.weight") or n == "lm_head.weight"]
    assert tied and all(torch.equal(saved[n], model.get_parameter(n)) for n in tied)
