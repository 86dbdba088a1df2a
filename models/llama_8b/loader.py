import torch
from transformers import LlamaConfig, LlamaForCausalLM, StaticCache

# Llama-3.1-8B's shapes: 32 decoder layers of width 4096 (MLP 14336, 32 query heads sharing 8 key/value heads),
# vocabulary 128256, rope theta 500000. 8.0 B parameters: 32 GB in fp32, so the model is built on the meta device
# unless asked otherwise (weights="random" needs that much memory).
DEFAULT_WEIGHTS = "meta"
VARIANTS = ("prefill", "decode")  # llama_8b:decode is one decode step with a static KV cache
PREFILL_TOKENS = 128
MAX_CACHE_LEN = 256


def config(**overrides) -> LlamaConfig:
    shape = dict(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
                 num_key_value_heads=8, vocab_size=128256, max_position_embeddings=8192, rms_norm_eps=1e-5,
                 rope_parameters={"rope_theta": 500000.0, "rope_type": "default"}, tie_word_embeddings=False)
    cfg = LlamaConfig(**{**shape, **overrides})
    cfg.use_cache = False  # prefill: logits only, no cache outputs
    return cfg


class DecodeStep(torch.nn.Module):
    """One decode step with a static KV cache, the cache tensors being arguments: forward(input_ids (1x1),
    cache_position (1,), key_0, value_0, key_1, ...) -> logits, writing the new token's keys and values into the
    cache in place (HF's StaticCache.update: index_copy_), as a serving loop runs it."""

    def __init__(self, model: LlamaForCausalLM, max_cache_len: int):
        super().__init__()
        self.model = model
        cfg = model.config
        self.cache = StaticCache(config=cfg, max_cache_len=max_cache_len)
        # Layers must be initialised before tracing; their tensors are replaced by the arguments in forward, so
        # they are made on meta (no storage).
        self.cache.early_initialization(1, cfg.num_key_value_heads, cfg.hidden_size // cfg.num_attention_heads,
                                        torch.float32, "meta")

    def forward(self, input_ids, cache_position, *caches):
        for i, layer in enumerate(self.cache.layers):
            layer.keys, layer.values = caches[2 * i], caches[2 * i + 1]
            layer.device = layer.keys.device
            layer.cumulative_length = cache_position[0].clone()  # where this step writes
        out = self.model(input_ids=input_ids, cache=self.cache, cache_position=cache_position,
                         position_ids=cache_position[None], use_cache=True)
        return out.logits


def cache_shapes(cfg: LlamaConfig, max_cache_len: int = MAX_CACHE_LEN) -> list:
    head_dim = cfg.hidden_size // cfg.num_attention_heads
    return [(1, cfg.num_key_value_heads, max_cache_len, head_dim)] * (2 * cfg.num_hidden_layers)


def load(weights: str = DEFAULT_WEIGHTS, variant: str = "prefill", **overrides):
    cfg = config(**overrides)
    if variant == "decode":
        cfg.use_cache = True
    with torch.device("meta" if weights == "meta" else "cpu"):
        model = LlamaForCausalLM(cfg).eval()
    if variant == "decode":
        # The cache as a prefill of PREFILL_TOKENS tokens left it (random here), and the next token's id.
        caches = [torch.randn(s) for s in cache_shapes(cfg)]
        step = (torch.randint(0, cfg.vocab_size, (1, 1)), torch.tensor([PREFILL_TOKENS]), *caches)
        return DecodeStep(model, MAX_CACHE_LEN).eval(), step
    input_ids = torch.randint(0, cfg.vocab_size, (1, PREFILL_TOKENS))  # real ids: they run once weights are given
    return model, (input_ids,)
