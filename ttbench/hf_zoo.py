"""The offline zoo of transformers: every architecture transformers can build from its config, shrunk, seeded,
random weights, nothing downloaded (issue 31's tracker runs on it). `tb.models.load("hf/bert")` builds one.

The shrink is generic: every (sub-)config's layer counts to at most 2, widths to at most 64 (hidden) and 128
(feed-forward), heads to at most 4 (key/value heads kept dividing them, head sizes following), experts to at most 4;
per-stage heads and depths of hierarchical models likewise, per-layer type lists to the layers kept; a small table
(OVERRIDES) sets what a family's defaults leave unset.
Where it breaks a family's own size rules the census (docs/hf_zoo.json) says so with the family's error. Inputs are the
model's own `dummy_inputs` when it has them, else made for its `main_input_name` from the config.
"""
from __future__ import annotations

import inspect
import json
import os
import re
import sys
from typing import Optional

from . import vision_zoo
from .core import BadInput

PREFIX = "hf/"
SEQUENCE = 16  # tokens of a made-up text input
LAYERS = ("num_hidden_layers", "num_layers", "n_layer", "n_layers", "encoder_layers", "decoder_layers",
          "num_encoder_layers", "num_decoder_layers")
HIDDEN = ("hidden_size", "d_model", "n_embd", "embed_dim", "dim")
FEED_FORWARD = ("intermediate_size", "encoder_ffn_dim", "decoder_ffn_dim", "d_ff", "ffn_dim", "n_inner",
                "moe_intermediate_size", "shared_expert_intermediate_size", "hidden_dim")
HEADS = ("num_attention_heads", "n_head", "n_heads", "num_heads", "encoder_attention_heads", "decoder_attention_heads")
EXPERTS = ("num_experts", "num_local_experts", "n_routed_experts")
MAX_LAYERS, MAX_HIDDEN, MAX_FEED_FORWARD, MAX_HEADS, MAX_EXPERTS = 2, 64, 128, 4, 4
# object queries of a DETR-like decoder: its top-k over the small image's few anchors must find as many
MAX_QUERIES = 16

QWEN4_INDEXER = {"n_heads": 2, "kv_heads": 1, "head_dim": 16, "budget": 8, "compress_ratio": 2}
COHERE_COMPASS_ROPE = {"full_attention": {"rope_theta": 10000.0, "rope_type": "default"}}
# Where the generic shrink is not enough: a family's config values that its defaults leave unset (None) or that
# are tied in a way no generic rule knows, without which its model cannot build or run. Each entry was found by
# the census (docs/hf_zoo.json, whose row says whether the family builds); "sub.name" sets a sub-config's value.
OVERRIDES = {
    "esm": {"vocab_size": 33, "pad_token_id": 1, "mask_token_id": 32},  # protein tokens: no vocabulary by default
    "layoutlmv3": {"coordinate_size": 10, "shape_size": 12},
    "autoformer": {"prediction_length": 4},  # time-series models: no forecast horizon by default
    "informer": {"prediction_length": 4},
    "time_series_transformer": {"prediction_length": 4},  # 4 coordinates and 2 shapes make the hidden size
    "timm_backbone": {"backbone": "resnet18"},  # no backbone named by default
    "funnel": {"architectures": ["FunnelModel"]},  # two models share its config: AutoModel reads the name
    "dbrx": {"attn_config.rope_theta": 500000.0,  # its attention reads a value its config no longer keeps
             "attn_config.clip_qkv": 8.0},  # and clamps to None by default
    "moonshine_streaming": {"num_key_value_heads": MAX_HEADS},  # read by its decoder, not in its config
    "reformer": {"axial_pos_embds_dim": [MAX_HIDDEN // 2, MAX_HIDDEN // 2]},  # the factors sum to the width
    "bros": {"dim_bbox_projection": MAX_HIDDEN // MAX_HEADS},  # its boxes are projected to one head's width
    "tvp": {"backbone_config.hidden_sizes": [32, 64, 128, 256]},  # its 448-pixel frames through a narrower ResNet
    # its head's width is computed from its width coefficient, and its batch norm reads hidden_dim: kept equal
    "efficientnet": {"hidden_dim": 2560, "image_size": 224},
    "encodec": {"codebook_dim": MAX_HIDDEN},  # its quantizer's width is the (shrunk) hidden size
    "xmod": {"default_language": "en_XX"},  # its adapters are per language: one must be chosen
    "step3p7": {"text_config.sliding_window": 64},  # its mask for sliding layers is made even where none slides
    # a sparse-attention indexer whose sizes a checkpoint says
    "qwen4_exp": {f"text_config.indexer_{k}": v for k, v in QWEN4_INDEXER.items()},
    "qwen4_exp_text": {f"indexer_{k}": v for k, v in QWEN4_INDEXER.items()},
    "cohere_compass": {"text_config.rope_parameters": COHERE_COMPASS_ROPE},  # rotary per layer kind: none given
    "cohere_compass_text": {"rope_parameters": COHERE_COMPASS_ROPE},
    # mixtures of experts whose expert counts (and the kinds of layers) are left for a checkpoint to say
    "lfm2_moe": {"layer_types": ["conv", "full_attention"]},
    "deepseek_ocr2": {"text_config.mlp_layer_types": ["dense", "sparse"], "text_config.n_group": 1,
                      "text_config.topk_group": 1, "text_config.num_experts_per_tok": 2},
    "dots1": {"n_routed_experts": 4, "num_experts_per_tok": 2, "n_shared_experts": 1},
    "diffusion_gemma": {"text_config.num_experts": 4, "text_config.top_k_experts": 2,
                        "text_config.moe_intermediate_size": 64},
    # no feature level by default (its checkpoints name one or more): one, at the shrunk d_model
    "lw_detr": {"projector_scale_factors": [1.0], "num_feature_levels": 1, "projector_in_channels": [MAX_HIDDEN]},
}


def architectures() -> list:
    """Model types transformers maps to a base model class (AutoModel), sorted."""
    _vision_packages_first()
    from transformers.models.auto.modeling_auto import MODEL_MAPPING_NAMES

    return sorted(MODEL_MAPPING_NAMES)


def _vision_packages_first() -> None:
    """transformers decides once, when first imported, whether torchvision is there (its video processors, some
    docstrings): the vision zoo's packages (vision_zoo.py, torchvision's import made sound) go on the path before
    that, where they are installed; after it, only a model that builds timm gets them (_with_timm)."""
    if "transformers" in sys.modules or not os.path.isdir(vision_zoo.VISION_PACKAGES):
        return
    try:
        vision_zoo.import_timm()
    except BadInput:  # not installed after all: models that need timm say "requires the timm library"
        pass


def _builds_timm(config) -> bool:
    """The config (or a sub-config) makes a timm model: a timm backbone (DETR's default) or a timm wrapper."""
    from transformers import PretrainedConfig

    todo, seen = [config], set()
    while todo:
        c = todo.pop()
        if id(c) in seen:
            continue
        seen.add(id(c))
        if getattr(c, "model_type", "") in ("timm_backbone", "timm_wrapper") or vars(c).get("use_timm_backbone"):
            return True
        todo += [v for v in vars(c).values() if isinstance(v, PretrainedConfig)]
    return False


def _with_timm() -> None:
    """timm for a model that builds one, when transformers was imported before the vision zoo's packages were on the
    path: transformers' remembered answer is asked again, and its timm modules get the `import timm` they skipped."""
    try:
        timm = vision_zoo.import_timm()
    except BadInput:  # not installed: the model says "requires the timm library"
        return
    from transformers.utils import import_utils  # lazy: transformers, as every model built here

    for asked in ("is_timm_available", "is_torchvision_available"):
        getattr(getattr(import_utils, asked, None), "cache_clear", lambda: None)()
    for name in TIMM_MODULES:  # imported before timm could be: their `import timm` was skipped
        module = sys.modules.get(name)
        if module is not None and not hasattr(module, "timm"):
            module.timm = timm


# transformers' modules that import timm when they are imported, if it is installed then
TIMM_MODULES = ("transformers.models.timm_backbone.modeling_timm_backbone",
                "transformers.models.timm_wrapper.modeling_timm_wrapper")


def _cap(config, names: tuple, limit: int) -> None:
    for name in names:
        value = vars(config).get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value > limit:
            setattr(config, name, limit)


def _shrink_one(config, widths: dict) -> None:
    heads_before = vars(config).get("num_attention_heads")
    before = dict(vars(config))
    _cap(config, LAYERS, MAX_LAYERS)
    _cap(config, HEADS, MAX_HEADS)
    _cap(config, HIDDEN, MAX_HIDDEN)
    _cap(config, FEED_FORWARD, MAX_FEED_FORWARD)
    for name in HIDDEN + FEED_FORWARD:  # what each width became: others equal to it follow (_follow_widths)
        if isinstance(before.get(name), int) and vars(config)[name] != before[name]:
            widths.setdefault(before[name], vars(config)[name])
    _cap(config, EXPERTS, MAX_EXPERTS)
    _cap(config, ("num_experts_per_tok", "num_experts_per_token"), 2)
    _cap(config, ("num_queries",), MAX_QUERIES)
    if vars(config).get("num_kv_shared_layers") and before.get("num_hidden_layers") != vars(config).get(
            "num_hidden_layers"):
        config.num_kv_shared_layers = 0  # too few layers left to both make a cache of each kind and share it
    attrs = vars(config)
    if "num_experts_per_tok" in attrs and attrs["num_experts_per_tok"] is None and any(
            isinstance(attrs.get(n), int) for n in EXPERTS):
        config.num_experts_per_tok = 2  # routed experts with no routing width set by default (DeepSeek-V2)
    kv, heads = attrs.get("num_key_value_heads"), attrs.get("num_attention_heads")
    if "num_key_value_heads" in attrs and kv is None and isinstance(heads, int):
        config.num_key_value_heads = heads  # None: multi-head, as the configs document (a model that divides by it)
    elif isinstance(kv, int) and isinstance(heads, int):
        # grouped-query attention stays grouped (2 of 4), multi-head stays multi-head
        config.num_key_value_heads = heads if kv >= (heads_before or kv) else max(1, heads // 2)
    if isinstance(attrs.get("qk_rope_head_dim"), int):
        pass  # multi-head latent attention: its head sizes are its own (qk_rope/qk_nope/v), head_dim is the rope's
    elif ("head_dim" in attrs and (attrs["head_dim"] is None or isinstance(attrs["head_dim"], int))
          and isinstance(heads, int) and heads):  # None too: a model that reads it (Ministral, HunYuan)
        hidden = next((attrs[n] for n in HIDDEN if isinstance(attrs.get(n), int)), None)
        if hidden:
            config.head_dim = max(8, hidden // heads)
    head = attrs.get("head_dim") if isinstance(attrs.get("head_dim"), int) else None
    hidden = next((attrs[n] for n in HIDDEN if isinstance(attrs.get(n), int)), None)
    any_heads = next((attrs[n] for n in HEADS if isinstance(attrs.get(n), int)), None)
    if head is None and isinstance(hidden, int) and any_heads:
        head = hidden // any_heads
    for name in ("rotary_dim", "rotary_emb_dim"):  # a rotary span wider than the shrunk head (GPT-J's 64)
        if isinstance(attrs.get(name), int) and head and attrs[name] > head:
            setattr(config, name, head)
    _mamba_heads(config, hidden)
    _keep_backbone_outputs(config, before)
    _shrink_per_stage(config)
    _keep_layer_types(config)
    _rescale_mrope(config)


def _keep_backbone_outputs(config, before: dict) -> None:
    """A ViT-like backbone (a stage per layer) whose layers the shrink cut keeps its outputs among the stages
    left: each out index past the last layer becomes the last layer (RF-DETR's DINOv2 read at 2, 5, 8, 11 of 12)."""
    names, indices = vars(config).get("stage_names"), vars(config).get("_out_indices")
    layers, layers_before = vars(config).get("num_hidden_layers"), before.get("num_hidden_layers")
    if not (isinstance(names, list) and _ints(indices) and isinstance(layers, int) and isinstance(layers_before, int)
            and len(names) == layers_before + 1 and layers < layers_before):
        return
    config.stage_names = names[:layers + 1]
    config.out_indices = sorted({min(i % len(names), layers) for i in indices})


def _mamba_heads(config, hidden) -> None:
    """Mamba-2's heads tile its expanded width (heads x head size = expand x hidden): with the hidden size shrunk,
    the head count follows (the head size kept)."""
    attrs = vars(config)
    if isinstance(attrs.get("mamba_d_ssm"), int):
        return  # the width the heads tile is its own (Falcon-H1), not expand x hidden
    expand = attrs.get("mamba_expand", attrs.get("expand"))
    for heads_name, size_name in (("mamba_n_heads", "mamba_d_head"), ("num_heads", "head_dim")):
        heads, size = attrs.get(heads_name), attrs.get(size_name)
        if all(isinstance(v, int) and not isinstance(v, bool) for v in (heads, size, expand, hidden)) and \
                "mamba" in str(getattr(config, "model_type", "")) + heads_name:
            setattr(config, heads_name, max(1, expand * hidden // size))
            for groups in ("n_groups", "mamba_n_groups"):  # the state's groups divide the heads
                if isinstance(attrs.get(groups), int) and vars(config)[heads_name] % attrs[groups]:
                    setattr(config, groups, 1)
            return


# Names of a config's sizes that may be tied to a width (an embedding size equal to the hidden size, a projection
# to a sub-model's width); not counts, positions, vocabularies or image geometry.
_WIDTH_NAME = re.compile(r"(size|dim|channels|embed|hidden|d_model|groups)", re.I)
_NOT_WIDTH = re.compile(r"(vocab|position|image|patch|max_|num_|window|length|seq|mel|sampling|bins|kernel|stride|"
                        r"bucket|pool|layers|heads|experts|rank|chunk|frames|label|classes|codebook|rope|"
                        r"query|queries|tokens|grid|resolution|crop|scale)", re.I)


# Per-stage widths (Hiera's, in SAM 2 and its kin) that multiply the first stage's width the shrink changed.
PER_STAGE_WIDTHS = ("embed_dim_per_stage", "backbone_channel_list")


def _follow_widths(config, widths: dict, seen: set) -> None:
    """A size the shrink did not touch but that equalled a width it changed (squeezebert's embedding_size, a
    projection to a vision tower's width, a decoder's cross-attention width) follows that width: the shrink keeps
    the config's own equalities, which its model asserts or multiplies by."""
    from transformers import PretrainedConfig

    if id(config) in seen:
        return
    seen.add(id(config))
    for name, value in list(vars(config).items()):
        if isinstance(value, PretrainedConfig):
            _follow_widths(value, widths, seen)
        elif (isinstance(value, int) and not isinstance(value, bool) and value in widths and name not in HIDDEN
              and name not in FEED_FORWARD and _WIDTH_NAME.search(name) and not _NOT_WIDTH.search(name)):
            setattr(config, name, widths[value])
        elif (_ints(value) and len(set(value)) == 1 and value[0] in widths and _WIDTH_NAME.search(name)
              and not _NOT_WIDTH.search(name)):  # one width per level (RT-DETR's decoder_in_channels)
            setattr(config, name, type(value)(widths[value[0]] for _ in value))
        elif name == "num_pos_feats" and isinstance(value, int) and 2 * value in widths:
            setattr(config, name, widths[2 * value] // 2)  # sine positions: half the width each (x and y)
        elif name in PER_STAGE_WIDTHS and _ints(value) and (end := next((v for v in (value[0], value[-1])
                                                                          if v in widths), None)):
            # a hierarchy's stage widths, multiples of its first stage's: scaled with it
            setattr(config, name, type(value)(v * widths[end] // end for v in value))


def _text_config(config):
    """The config of the model's text (its decoder's where it has a text encoder too: MusicGen)."""
    if not hasattr(config, "get_text_config"):
        return config
    try:
        return config.get_text_config()
    except ValueError:  # more than one text config
        return config.get_text_config(decoder=True)


def _room_for_special_tokens(config) -> None:
    """A multimodal model's image (video, audio) placeholder token ids inside its text model's vocabulary: some
    defaults put them just past it (LLaVA's 32000 over Llama's 32000 words), and the embedding then fails."""
    text = _text_config(config)
    vocab = getattr(text, "vocab_size", None)
    if not isinstance(vocab, int):
        return
    ids = [v for c in (config, text) for n, v in vars(c).items()
           if n.endswith(("_token_id", "_token_index")) and isinstance(v, int) and not isinstance(v, bool)
           and n.startswith(("image", "video", "audio", "boi", "eoi", "boa", "eoa"))]
    top = max(ids, default=-1)
    if vocab <= top < vocab + SPECIAL_TOKENS_ROOM:
        text.vocab_size = top + 1
    # a placeholder its processor sets (BLIP-2's image token): the last words of the vocabulary
    for i, name in enumerate(("image_token_index", "image_token_id", "video_token_index", "video_token_id")):
        if name in vars(config) and vars(config)[name] is None:
            setattr(config, name, vocab - 1 - i // 2)


# How far past the text vocabulary a placeholder id may sit and still be taken in (Step3's image token sits 22864
# past it); an id further out is taken for a mistake, not a vocabulary to grow.
SPECIAL_TOKENS_ROOM = 32768


DEFAULT_MROPE = (16, 24, 24)


def _rescale_mrope(config) -> None:
    """Multimodal rotary sections (Qwen2-VL's [16, 24, 24] over a 128-wide head) rescaled to the shrunk head,
    in proportion, summing to half of it as before."""
    attrs = vars(config)
    head = attrs.get("head_dim")
    if not isinstance(head, int):
        hidden = next((attrs[n] for n in HIDDEN if isinstance(attrs.get(n), int)), None)
        heads = attrs.get("num_attention_heads")
        head = hidden // heads if isinstance(hidden, int) and isinstance(heads, int) and heads else None
    # a model that reads sections its config leaves out takes Qwen2-VL's default (its config says it knows the key)
    default = list(DEFAULT_MROPE) if "mrope_section" in getattr(type(config), "ignore_keys_at_rope_validation",
                                                                 ()) else None
    for holder in (attrs.get("rope_parameters"), attrs.get("rope_scaling")):
        sections = holder.get("mrope_section", default) if isinstance(holder, dict) else None
        # the rotary part of the head only (GLM-4V rotates half of it)
        partial = (holder or {}).get("partial_rotary_factor") or attrs.get("partial_rotary_factor") or 1.0
        half = int(head * partial) // 2 if head else 0
        if not half or not _ints(sections) or sum(sections) == half:
            continue
        total = sum(sections)
        scaled = [max(1, s * half // total) for s in sections]
        scaled[-1] += half - sum(scaled)
        if scaled[-1] >= 1:
            holder["mrope_section"] = type(sections)(scaled)


def _ints(value) -> bool:
    return isinstance(value, (list, tuple)) and bool(value) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value)


def _shrink_per_stage(config) -> None:
    """Hierarchical models (Swin and its kin) give heads and depths per stage as lists: each stage to at most
    MAX_HEADS heads, a power of two (the stage widths, the shrunk width doubled per stage, stay divisible), and
    at most MAX_LAYERS blocks."""
    attrs = vars(config)
    for name in HEADS:
        if _ints(attrs.get(name)):
            value = attrs[name]
            setattr(config, name, type(value)(1 << (min(h, MAX_HEADS).bit_length() - 1) if h > 0 else h
                                              for h in value))
    if _ints(attrs.get("depths")):
        config.depths = type(attrs["depths"])(min(d, MAX_LAYERS) for d in attrs["depths"])


def _keep_layer_types(config) -> None:
    """A per-layer list (`layer_types`: sliding or full attention, linear or softmax) as long as the shrunk layer
    count, keeping one layer of each kind the model has where the count allows (a model checks that the kinds
    that make a cache are the ones that use it)."""
    attrs = vars(config)
    types = attrs.get("layer_types")
    layers = next((attrs[n] for n in LAYERS if isinstance(attrs.get(n), int)), None)
    if not isinstance(types, (list, tuple)) or not layers or len(types) <= layers:
        return
    firsts = [i for i, t in enumerate(types) if t not in types[:i]]
    keep = sorted((firsts + [i for i in range(len(types)) if i not in firsts])[:layers])
    config.layer_types = type(types)(types[i] for i in keep)


def shrunk_config(arch: str):
    """The architecture's default config, shrunk (every sub-config too)."""
    from transformers import AutoConfig, PretrainedConfig

    config = AutoConfig.for_model(arch)
    seen: set = set()
    widths: dict = {}  # a width before the shrink -> after

    def visit(c) -> None:
        if id(c) in seen:
            return
        seen.add(id(c))
        _shrink_one(c, widths)
        for value in list(vars(c).values()):
            if isinstance(value, PretrainedConfig):
                visit(value)
    visit(config)
    _follow_widths(config, widths, set())
    _room_for_special_tokens(config)
    for name, value in OVERRIDES.get(arch, {}).items():
        *path, leaf = name.split(".")
        holder = config
        for part in path:
            holder = getattr(holder, part)
        setattr(holder, leaf, value)
    return config


def shrink_changes(arch: str) -> dict:
    """What the shrink (and load) set on the default config, nested per sub-config: {attr: value, sub: {...}}.
    Set on a fresh default config with setattr, it makes the same model (the tracker's standalone scripts do)."""
    from transformers import AutoConfig, PretrainedConfig

    def diff(default, shrunk) -> dict:
        out = {}
        for name, value in vars(shrunk).items():
            before = vars(default).get(name)
            if isinstance(value, PretrainedConfig) and isinstance(before, PretrainedConfig):
                nested = diff(before, value)
                if nested:
                    out[name] = nested
            elif value != before and (isinstance(value, (int, float, str, bool, type(None))) or (
                    isinstance(value, (list, tuple)) and all(isinstance(v, (int, float, str, bool)) for v in value))):
                out[name] = list(value) if isinstance(value, tuple) else value
        return out

    shrunk = shrunk_config(arch)
    if hasattr(shrunk, "use_cache"):
        shrunk.use_cache = False  # as load() does
    return diff(AutoConfig.for_model(arch), shrunk)


def _named_inputs(model, config, params) -> dict:
    """The model's own dummy inputs (when all are tensors its forward takes), else one made for its main input.
    `params`: its forward's parameters."""
    import torch

    dummy = getattr(model, "dummy_inputs", None)
    named = dict(dummy) if isinstance(dummy, dict) and all(isinstance(v, torch.Tensor) for v in dummy.values()) \
        and set(dummy) <= set(params) else {}
    mains = getattr(model, "main_input_name", "input_ids")  # one name, or (OneFormer) a list of them
    for main in reversed([mains] if isinstance(mains, str) else list(mains)):
        if main not in named:  # made for the main input, the dummies (a decoder's ids) kept beside it
            named = {main: _main_input(main, config), **named}
    # What the forward needs beside it: a multimodal model's other modality, an encoder-decoder's decoder ids.
    if "pixel_values" in params and "pixel_values" not in named and getattr(config, "vision_config", None):
        named["pixel_values"] = _main_input("pixel_values", config)
    if "input_ids" in params and "input_ids" not in named and getattr(config, "text_config", None):
        named = {"input_ids": _main_input("input_ids", config), **named}
    if "decoder_input_ids" in params and "decoder_input_ids" not in named:
        batch = next(iter(named.values())).shape[0]
        named["decoder_input_ids"] = _main_input("input_ids", config)[:1, :4].expand(batch, 4).contiguous()
    return _required_inputs(params, config, _one_batch(named))


def _one_batch(named: dict) -> dict:
    """The dummies' text batch of 3 beside a made image of 1: one text. (Only the text is cut: a first axis
    elsewhere may be flattened patches, not a batch.)"""
    others = {v.shape[0] for k, v in named.items() if k not in TEXT_INPUTS and v.dim()}
    if 1 in others and any(named[k].shape[0] > 1 for k in TEXT_INPUTS if k in named):
        return {k: v[:1] if k in TEXT_INPUTS else v for k, v in named.items()}
    return named


def _find(config, names: tuple, default=None):
    """The first int (or int pair) among `names` in the config or, breadth first, its sub-configs."""
    from transformers import PretrainedConfig

    todo, seen = [config], set()
    while todo:
        c = todo.pop(0)
        if id(c) in seen:
            continue
        seen.add(id(c))
        for name in names:
            value = vars(c).get(name)
            if isinstance(value, int) and not isinstance(value, bool) or _ints(value):
                return value
        todo += [v for v in vars(c).values() if isinstance(v, PretrainedConfig)]
    return default


MEL_BINS = ("num_mel_bins", "n_mels", "mel_bins", "feature_size", "input_feat_size", "num_mel_filters")
PATCH_GRID = 4  # patches per side of a made-up image for vision towers that take flattened patches


def _patch_size(config) -> int:
    """The side of a vision tower's square patch (the first of a pair), 14 where the config names none."""
    patch = _find(config, ("patch_size",), 14)
    return patch if isinstance(patch, int) else patch[0]


def _required_inputs(params, config, named: dict) -> dict:
    """What the forward requires beyond `named` (no default value), made by the parameter's name: the flattened
    patches and their (t, h, w) grid that Qwen2-VL-like vision towers take, a video, audio, masks of ones, a
    Q-Former's queries. A parameter no rule knows is left out: the model's own error then names it."""
    import torch

    required = [p.name for p in params.values()
                if p.default is inspect.Parameter.empty and p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                                       inspect.Parameter.KEYWORD_ONLY)]
    missing = [n for n in required if n not in named]
    if not missing and "image_grid_thw" not in params and "spatial_shapes" not in params:
        return named
    patch = _patch_size(config)
    channels = _find(config, ("in_channels", "num_channels", "in_chans"), 3)
    temporal = _find(config, ("temporal_patch_size",), 1)
    merge = _find(config, ("spatial_merge_size", "merge_size"), 2)
    merge = merge if isinstance(merge, int) else merge[0]
    grid = PATCH_GRID * merge
    flat = torch.randn(grid * grid, channels * temporal * patch * patch)
    out = dict(named)
    if "spatial_shapes" in params and "pixel_values" in out:  # NaFlex (SigLIP 2): patches, which are real, grid
        out["pixel_values"] = torch.randn(1, PATCH_GRID * PATCH_GRID, channels * patch * patch)
        out["pixel_attention_mask"] = torch.ones(1, PATCH_GRID * PATCH_GRID, dtype=torch.long)
        out["spatial_shapes"] = torch.tensor([[PATCH_GRID, PATCH_GRID]])
    if "image_grid_thw" in params and "pixel_values" in out and "image_grid_thw" not in out:
        # a Qwen2-VL-like model: its images as flattened patches and their grid (its image tokens: _mend)
        out["pixel_values"], out["image_grid_thw"] = flat, torch.tensor([[1, grid, grid]])
    if "grid_thw" in missing or "image_grid_thw" in missing:  # flattened patches over a t x h x w grid
        for name in ("grid_thw", "image_grid_thw"):
            if name in missing:
                out[name] = torch.tensor([[1, grid, grid]])
        for name in ("hidden_states", "pixel_values"):
            if name in required:
                out[name] = flat
    makers = {
        "hidden_states": lambda: flat,
        "pixel_values": lambda: _main_input("pixel_values", config),
        "prompt_pixel_values": lambda: _main_input("pixel_values", config),
        "prompt_masks": lambda: _main_input("pixel_values", config),
        "pixel_values_videos": lambda: _main_input("pixel_values", config).unsqueeze(1).expand(
            -1, _find(config, ("num_frames",), 2), -1, -1, -1).contiguous(),
        "input_values": lambda: _main_input("input_values", config),
        "input_features": lambda: _main_input("input_features", config),
        "input_features_mask": lambda: torch.ones(1, 3000, dtype=torch.long),
        "merge_sizes": lambda: torch.tensor([merge]),
        # a time series' padding marks (none padded) and frequency class (TimesFM), over its past values' time
        "past_values_padding": lambda: torch.zeros(out["past_values"].shape[:2], dtype=torch.long),
        "freq": lambda: torch.zeros(1, dtype=torch.long),
        "qformer_input_ids": lambda: torch.randint(0, _find(getattr(config, "qformer_config", config),
                                                            ("vocab_size",), 1000), (1, 8)),
        "query_embeds": lambda: torch.randn(1, _find(config, ("num_query_tokens",), 8),
                                            _find(config, HIDDEN, 64)),
    }
    for name in missing:
        if name not in out and name in makers:
            out[name] = makers[name]()
    return out


def _main_input(main: str, config):
    import torch

    text = _text_config(config)
    if main == "input_ids":
        return torch.randint(0, getattr(text, "vocab_size", None) or 1000, (1, SEQUENCE))
    if main == "pixel_values":
        vision = getattr(config, "vision_config", None) or config
        # its own size, else (SAM 2) its vision tower's backbone's; not a detector's backbone's pretraining size
        size = (getattr(vision, "image_size", None) or getattr(vision, "max_img_size", None)
                or (_find(vision, ("image_size",)) if vision is not config else None) or 64)
        size = size if isinstance(size, int) else size[0]
        return torch.randn(1, getattr(vision, "num_channels", 3), size, size)
    if main == "pixel_values_videos":
        return _main_input("pixel_values", config).unsqueeze(1).expand(
            -1, _find(config, ("num_frames", "frames_per_clip"), 2), -1, -1, -1).contiguous()
    if main == "past_values":  # a time series: (batch, time, channels)
        return torch.randn(1, _find(config, ("context_length",), 64), _find(config, ("num_input_channels",), 1))
    if main == "input_values" and isinstance(vars(config).get("max_length"), int) and \
            isinstance(vars(config).get("num_mel_bins"), int):  # a spectrogram of fixed length (AST)
        return torch.randn(1, config.max_length, config.num_mel_bins)
    if main == "input_values":
        return torch.randn(1, 16000)
    if main == "latents":  # a codec's decoder: (batch, hidden, frames)
        return torch.randn(1, _find(config, HIDDEN, 64), SEQUENCE)
    if main == "inputs":  # Perceiver without a preprocessor: its inputs are already embedded
        return torch.randn(1, SEQUENCE, _find(config, ("d_model",), 64))
    if main == "input_features":
        return torch.randn(1, _find(config, MEL_BINS, 80), 3000)
    if main == "task_inputs" and isinstance(vars(config).get("task_seq_len"), int):  # OneFormer's task prompt ids
        return torch.randint(0, _find(config, ("text_encoder_vocab_size",), 1000), (1, config.task_seq_len))
    raise BadInput(f"hf/{config.model_type}: no inputs known for its main input {main!r}")


def _wrapper_class():
    import torch

    class ByPosition(torch.nn.Module):
        """A transformers model called with its inputs by position (ttbench's example inputs are a tuple of
        tensors; transformers' forwards take most of them by keyword), giving back the tensors of its output."""

        def __init__(self, model, names: tuple):
            super().__init__()
            self.model, self.names = model, names

        def forward(self, *tensors):
            out = self.model(**dict(zip(self.names, tensors)))
            return tuple(_tensors_in(out.to_tuple() if hasattr(out, "to_tuple") else out))

    def _tensors_in(value):
        """The tensors of an output in order, nested tuples included (a backbone's `feature_maps`)."""
        if isinstance(value, torch.Tensor):
            yield value
        elif isinstance(value, (tuple, list)):
            for v in value:
                yield from _tensors_in(v)
    return ByPosition


def load(arch: str, weights: Optional[str] = None):
    """(model in eval mode, inputs) of one architecture, seeded random weights; weights="meta": built on meta."""
    if arch not in architectures():
        raise BadInput(f"unknown transformers architecture {arch!r}: `ttbench models --hf` lists them")
    import torch
    from transformers import AutoModel

    config = shrunk_config(arch)
    if _builds_timm(config) and os.path.isdir(vision_zoo.VISION_PACKAGES):
        _with_timm()
    if hasattr(config, "use_cache"):
        config.use_cache = False  # a cache object in the output is no tensor to compare
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        if weights == "meta":
            with torch.device("meta"):
                model = AutoModel.from_config(config)
        else:
            model = AutoModel.from_config(config)
        params = inspect.signature(model.forward).parameters
        named = _named_inputs(model, config, params)
        if weights != "meta":
            named = _repaired_inputs(model.eval(), config, named, params)
    wrapped = _wrapper_class()(model.eval(), tuple(named)).eval()
    wrapped.inputs_note = getattr(model, "ttbench_inputs_note", "")
    return wrapped, tuple(named.values())


REPAIRS = 4  # input repairs tried, each on what the model's last error said


def _repaired_inputs(model, config, named: dict, params) -> dict:
    """The inputs, run once; where the model refuses them with an error that says what it wanted, mended and run
    again (at most REPAIRS times): as many image tokens as its vision tower makes features, a frames axis for a
    video or multi-image model, and last, for a multimodal model whose image input no rule mends, its text alone.
    Inputs no rule mends are given back as they were: the model's own error is then the census's reason."""
    import torch

    tried = named
    for _ in range(REPAIRS):
        try:
            with torch.no_grad():
                model(**tried)
            return tried
        except Exception as exc:  # the model's own refusal: read for what it wanted
            mended = _mend(config, tried, str(exc), params)
        if mended is None:
            break
        tried = _one_batch(mended)
    text = {k: v for k, v in named.items() if k in TEXT_INPUTS}
    if text and len(text) < len(named):  # the language model alone, where the images could not be made to fit
        try:
            with torch.no_grad():
                model(**text)
            model.ttbench_inputs_note = (f"text alone: {', '.join(k for k in named if k not in text)} could not "
                                         "be made to fit")
            return text
        except Exception:  # noqa: BLE001 - the text alone does not run either: the original inputs' error stands
            pass
    return named


MAX_IMAGE_TOKENS = 8192
TEXT_INPUTS = ("input_ids", "attention_mask", "token_type_ids", "decoder_input_ids")
_TOKEN_MISMATCH = re.compile(r"tokens(?: do not match)?[^0-9]*(\d+)[^0-9]+features[^0-9]*(\d+)", re.I)


def _named_in_error(config, named: dict, error: str, params) -> dict:
    """Inputs the model's refusal names ("You have to specify bbox", "`visual_feats` cannot be None") that its
    forward takes and that were not given, made by their name."""
    import torch

    tokens = next((v.shape[1] for k, v in named.items() if k == "input_ids" and v.dim() == 2), SEQUENCE)
    boxes = _find(config, ("num_boxes", "max_num_boxes"), 4)
    makers = {
        "pixel_values": lambda: _main_input("pixel_values", config),
        "input_features": lambda: _main_input("input_features", config),
        "bbox": lambda: torch.tensor([0.0, 0.0, 0.5, 0.5]).repeat(1, tokens, 1),  # a box per token
        "visual_feats": lambda: torch.randn(1, boxes, _find(config, ("visual_feat_dim",), 64)),
        "visual_pos": lambda: torch.rand(1, boxes, _find(config, ("visual_pos_dim",), 4)),
    }
    named_here = [n for n in makers if n in params and n not in named and re.search(rf"\b{n}\b", error, re.I)]
    # a region's features come with their positions: the two together
    wanted = set(named_here) | ({"visual_pos"} if "visual_feats" in named_here and "visual_pos" in params else set())
    return {n: makers[n]() for n in makers if n in wanted}


def _mend(config, named: dict, error: str, params) -> Optional[dict]:
    import torch

    missing = _named_in_error(config, named, error, params)
    if missing:
        return {**named, **missing}

    image_token = next((v for c in (config, getattr(config, "text_config", None)) if c is not None
                        for n in ("image_token_id", "image_token_index") if isinstance(v := getattr(c, n, None), int)),
                       None)
    found = _TOKEN_MISMATCH.search(error)
    if found and image_token is not None and "input_ids" in named:
        have, features = int(found.group(1)), int(found.group(2))
        hidden = getattr(_text_config(config), "hidden_size", None)
        # the features as tokens, else as elements of hidden-wide tokens (models count either)
        wanted = next((n for n in (features, features // hidden if hidden and features % hidden == 0 else None)
                       if n and n != have and n <= MAX_IMAGE_TOKENS), None)
        if wanted is None:
            return None
        ids = named["input_ids"][:1]  # one text for the one image
        text = ids[:, ids[0] != image_token]
        out = dict(named, input_ids=torch.cat([torch.full((1, wanted), image_token, dtype=ids.dtype), text], dim=1))
        for name in ("attention_mask", "token_type_ids"):
            if name in named:
                out[name] = (torch.ones if name == "attention_mask" else torch.zeros)(
                    out["input_ids"].shape, dtype=named[name].dtype)
        return out
    if "mm_token_type_ids" in error and "mm_token_type_ids" not in named and image_token is not None and \
            "input_ids" in named:  # which tokens are the image's (multimodal rotary positions need it)
        return dict(named, mm_token_type_ids=(named["input_ids"] == image_token).long())
    features = named.get("input_features")
    normalized = re.search(r"normalized_shape=\[(\d+)\].*got input of size\s*\[1, \d+, \d+\]", error)
    if isinstance(features, torch.Tensor) and normalized and features.shape[-1] != int(normalized.group(1)):
        return dict(named, input_features=torch.randn(1, 300, int(normalized.group(1))))  # stacked frames
    if isinstance(features, torch.Tensor) and features.dim() == 3 and features.shape[-1] == 3000 and (
            "mat1 and mat2" in error or "shape" in error or "size of tensor" in error):
        return dict(named, input_features=features.transpose(1, 2).contiguous())  # (batch, time, mel) models
    if isinstance(features, torch.Tensor) and features.dim() == 3 and features.shape[-1] == 3000 and \
            "channels instead" in error:  # (batch, time, mel) into a convolution over time: 300 frames will do
        return dict(named, input_features=torch.randn(1, 300, features.shape[1]))
    matmul = re.search(r"mat1 and mat2 shapes cannot be multiplied \(\d+x(\d+) and (\d+)x\d+\)", error)
    if isinstance(features, torch.Tensor) and features.dim() == 3 and matmul and \
            features.shape[-1] == int(matmul.group(1)) != int(matmul.group(2)):
        return dict(named, input_features=torch.randn(1, 300, int(matmul.group(2))))  # stacked frames, (time, mel)
    audio = named.get("input_values")
    if isinstance(audio, torch.Tensor) and audio.dim() == 2 and ("expected 3, got 2" in error or
                                                                 "Dimension out of range" in error or
                                                                 "must match the size of tensor b (16000)" in error):
        return dict(named, input_values=audio.unsqueeze(1))  # (batch, channels, time) codecs
    width = re.search(r"normalized_shape=\[(\d+)\].*got input of size\s*\[1, 16000\]", error)
    if isinstance(audio, torch.Tensor) and audio.dim() == 2 and width:  # "values" that are hidden states (SpeechT5)
        return dict(named, input_values=torch.randn(1, SEQUENCE, int(width.group(1))))
    if isinstance(audio, torch.Tensor) and audio.dim() == 3 and "decoder_input_values" in params and \
            "decoder_input_values" not in named and "'NoneType' object" in error:  # and its decoder's, as wide
        return dict(named, decoder_input_values=torch.randn(1, 4, audio.shape[-1]))
    series = named.get("past_values")
    if isinstance(series, torch.Tensor) and series.dim() == 3 and series.shape[-1] == 1 and \
            "expected 2)" in error:  # one series as (batch, time)
        return dict(named, past_values=series[..., 0])
    multiple = re.search(r"length (\d+) is not a multiple of (\d+)", error)
    if isinstance(audio, torch.Tensor) and multiple:
        keep = max(1, int(multiple.group(1)) // int(multiple.group(2))) * int(multiple.group(2))
        return dict(named, input_values=torch.randn(*audio.shape[:-1], keep))
    pixels = named.get("pixel_values")
    size = re.search(r"(?:doesn't|does not) match model \((\d+)(?:\*(\d+))?\)", error)
    for key in ("pixel_values", "pixel_values_videos"):  # the image size the model was made for
        images = named.get(key)
        if isinstance(images, torch.Tensor) and images.dim() >= 4 and size:
            height = int(size.group(1))
            width = int(size.group(2) or height)
            if (images.shape[-2], images.shape[-1]) != (height, width) and height * width <= 4096 * 4096:
                return dict(named, **{key: torch.randn(*images.shape[:-2], height, width)})
    if isinstance(pixels, torch.Tensor) and pixels.dim() == 4 and "Output size is too small" in error and \
            pixels.shape[-1] < 1024:  # pooled away: a larger image
        return dict(named, pixel_values=torch.randn(*pixels.shape[:-2], pixels.shape[-2] * 2, pixels.shape[-1] * 2))
    if isinstance(pixels, torch.Tensor) and pixels.dim() == 4 and "(batch_size, 2," in error:  # an image pair
        return dict(named, pixel_values=pixels.unsqueeze(1).expand(-1, 2, -1, -1, -1).contiguous())
    if isinstance(pixels, torch.Tensor) and pixels.dim() == 2 and matmul and \
            pixels.shape[1] == int(matmul.group(1)) != int(matmul.group(2)):  # flattened patches, wider (frames)
        return dict(named, pixel_values=torch.randn(pixels.shape[0], int(matmul.group(2))))
    patch = _patch_size(config)
    if isinstance(pixels, torch.Tensor) and pixels.dim() == 2 and "input to conv2d, but got input of size" in error \
            and pixels.shape[1] % (patch * patch) == 0:
        return dict(named, pixel_values=pixels.reshape(pixels.shape[0], -1, patch, patch))  # patches as images
    if pixels is None and "pixel_values" in params and "'NoneType' object has no attribute" in error:
        return dict(named, pixel_values=_main_input("pixel_values", config))  # an image the model reads anyway
    if "expected 5, got 4" in error and isinstance(named.get("pixel_values"), torch.Tensor) and \
            named["pixel_values"].dim() == 4:
        frames = next((v for c in (config, getattr(config, "vision_config", None)) if c is not None
                       for n in ("num_frames",) if isinstance(v := getattr(c, n, None), int)), 1)
        return dict(named, pixel_values=named["pixel_values"].unsqueeze(1).expand(-1, frames, -1, -1, -1)
                    .contiguous())
    return None


EAGER_TIMEOUT_S = 120.0  # one architecture's build and eager run


def check(arch: str) -> dict:
    """{"arch", "status": "ok" | "build failed" | "eager failed", "reason", "params", "inputs"}: the architecture
    built and run eagerly in a forked copy of this process (a crash or a hang is that architecture's reason)."""
    from .proc.children import ContainedFailure, Forked  # lazy: only the check forks

    def build_and_run():
        import torch

        try:
            model, inputs = load(arch)
        except Exception as exc:  # the reason is the row: transformers' own message
            return {"status": "build failed", "reason": _reason(exc)}
        facts = {"params": sum(p.numel() for p in model.parameters()),
                 "inputs": dict(zip(model.names, [list(t.shape) for t in inputs])), "note": model.inputs_note}
        try:
            with torch.no_grad():
                model(*inputs)
        except Exception as exc:
            return {**facts, "status": "eager failed", "reason": _reason(exc)}
        return {**facts, "status": "ok", "reason": ""}

    try:
        row = Forked(build_and_run, EAGER_TIMEOUT_S, f"hf/{arch}").result()
    except ContainedFailure as exc:
        row = {"status": "eager failed", "reason": str(exc)}
    return {"arch": arch, **row}


# An install folder in a message (a traceback's path), left out of what is committed.
INSTALL_PATH = re.compile(r"[^\s'\"(]*/(?:site|dist)-packages/")


def _reason(exc: BaseException) -> str:
    """The exception's type and first line, without this machine's install paths (the census is committed)."""
    first = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
    first = INSTALL_PATH.sub("site-packages/", first)
    return f"{type(exc).__name__}: {first[:200]}" if first else type(exc).__name__


CENSUS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "hf_zoo.json")


def census(archs: list, progress=None) -> dict:
    """Every architecture of `archs` checked (see check), with the transformers version they ran under."""
    import transformers

    rows = []
    for i, arch in enumerate(archs):
        rows.append(check(arch))
        if progress:
            progress(i + 1, len(archs), rows[-1])
    return {"transformers": transformers.__version__, "rows": rows,
            "ok": sum(r["status"] == "ok" for r in rows), "of": len(rows)}


def recorded_census() -> Optional[dict]:
    """The census committed under docs/ (`make hf-zoo` writes it), when it was taken under the installed
    transformers; None otherwise (its statuses would be another version's)."""
    import transformers

    try:
        with open(CENSUS) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("transformers") == transformers.__version__ else None
