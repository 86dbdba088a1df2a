"""The transformers zoo (issue 31, item 1): architectures built offline from their configs, shrunk, seeded."""
import subprocess
import sys

import pytest
import torch

import ttbench as tb
from ttbench import hf_zoo

# Encoders, decoders (multi-head and grouped-query), encoder-decoders, vision, audio (waveform and spectrogram),
# and a two-tower multimodal model.
SAMPLE = ("bert", "gpt2", "llama", "mistral", "t5", "bart", "vit", "wav2vec2", "whisper", "clip")


@pytest.mark.parametrize("arch", SAMPLE)
def test_the_generic_shrink_builds_each_sampled_architecture_and_it_runs_eagerly(arch):
    row = hf_zoo.check(arch)
    assert row["status"] == "ok", row
    assert row["params"] < 20_000_000, row  # shrunk: a full-size default config has 100M and more


@pytest.mark.parametrize("arch", ["swinv2", "gemma4_text", "esm"])
def test_families_the_generic_shrink_broke_build_and_run(arch):
    # swinv2: heads per stage (3, 6, 12, 24) did not divide the shrunk width; gemma4_text: 30 layer types for 2
    # layers; esm: no vocabulary by default (the per-family table)
    row = hf_zoo.check(arch)
    assert row["status"] == "ok", row


# Ten that the 5.24.0 census found failing for ttbench's own reasons (issue 43), one or two per cause: a width the
# model ties to the hidden size (squeezebert's embedding_size, LayoutLMv3's coordinate and shape sizes), multi-head
# latent attention's own head sizes (deepseek_v2, minicpm3), multimodal rotary sections over a shrunk head
# (qwen2_vl_text), image placeholder tokens as many as the vision tower's features and inside the vocabulary
# (llava, paligemma), a frames axis for video and multi-image models (videomae, idefics2), a timm backbone (detr).
ONCE_FAILING = ("squeezebert", "layoutlmv3", "deepseek_v2", "minicpm3", "qwen2_vl_text", "llava", "paligemma",
                "videomae", "idefics2", "detr",
                # and the next round's: a width per feature level and queries within the small image's anchors
                # (rt_detr), a ViT backbone read past its cut layers (rf_detr), a head size left None (ministral),
                # inputs the model's refusal names (lxmert), NaFlex patches (siglip2_vision_model), mel frames
                # into a convolution (speech_to_text), rotary sections over the rotated part of the head
                # (glm4v_moe_text), flattened patches beside a one-text batch (qwen2_vl)
                "rt_detr", "rf_detr", "ministral", "lxmert", "siglip2_vision_model", "speech_to_text",
                "glm4v_moe_text", "qwen2_vl",
                # a list of main inputs, its task prompt among them (the 836-job run's one ttbench error)
                "oneformer")


@pytest.mark.parametrize("arch", ONCE_FAILING)
def test_architectures_the_shrink_or_the_inputs_failed_build_and_run(arch):
    row = hf_zoo.check(arch)
    assert row["status"] == "ok", row
    assert not row.get("note"), row  # their own inputs, images included: not the text alone


def test_a_multimodal_model_gets_as_many_image_tokens_as_its_vision_tower_makes():
    model, inputs = tb.models.load("hf/llava")
    ids, pixels = inputs
    image_token = model.model.config.image_token_id
    assert pixels.dim() == 4 and int((ids == image_token).sum()) == 576  # (336 / 14) ** 2 patches


def test_a_model_is_the_same_every_time_and_the_callers_random_state_is_left_alone():
    torch.manual_seed(123)
    before = torch.get_rng_state()
    m1, x1 = tb.models.load("hf/gpt2")
    m2, x2 = tb.models.load("hf/gpt2")
    assert torch.equal(torch.get_rng_state(), before)
    assert all(torch.equal(a, b) for a, b in zip(x1, x2))
    assert all(torch.equal(p, q) for p, q in zip(m1.parameters(), m2.parameters()))
    with torch.no_grad():
        assert torch.equal(m1(*x1)[0], m2(*x2)[0])


def test_a_transformers_architecture_brings_up_like_a_zoo_model():
    b = tb.bringup(*tb.models.load("hf/bert"), name="hf/bert", tt=False)
    assert b.ok, b.table()
    assert b.run().ok


@pytest.mark.subprocess  # the command line, as a user runs it
def test_an_unknown_architecture_is_one_line_and_exit_2():
    r = subprocess.run([sys.executable, "-m", "ttbench.cli", "models", "--hf", "--arch", "bert,no_such_arch"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.strip().splitlines() == [
        "ttbench: error: unknown transformers architecture(s) no_such_arch: `ttbench models --hf` lists them"], r
    with pytest.raises(tb.BadInput, match="unknown transformers architecture 'no_such_arch'"):
        tb.models.load("hf/no_such_arch")


@pytest.mark.subprocess  # the command line, as a user runs it
def test_the_cli_and_the_sweep_take_hf_names_and_refuse_unknown_ones(tmp_path):
    from ttbench.fleet.sweep import sweep

    with pytest.raises(tb.BadInput, match="unknown model.s. hf/no_such_arch"):
        sweep(["hf/bert", "hf/no_such_arch"], db_path=str(tmp_path / "r.sqlite"))
    r = subprocess.run([sys.executable, "-m", "ttbench.cli", "bringup", "hf/no_such_arch", "--no-tt"],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 2 and "unknown transformers architecture 'no_such_arch'" in r.stderr, r.stderr


def test_a_backbone_gives_back_its_feature_maps():
    # HGNetV2Backbone returns `feature_maps`, a tuple of tensors: they were dropped, and the model compared nothing
    model, inputs = tb.models.load("hf/hgnet_v2")
    with torch.no_grad():
        outputs = model(*inputs)
    assert len(outputs) == 1 and outputs[0].dim() == 4, [tuple(o.shape) for o in outputs]
