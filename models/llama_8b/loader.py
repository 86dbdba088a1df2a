import torch
from transformers import LlamaConfig, LlamaForCausalLM

# Llama-3.1-8B's shapes: 32 decoder layers of width 4096 (MLP 14336, 32 query heads sharing 8 key/value heads),
# vocabulary 128256, rope theta 500000. 8.0 B parameters: 32 GB in fp32, so the model is built on the meta device
# unless asked otherwise (weights="random" needs that much memory).
DEFAULT_WEIGHTS = "meta"
PREFILL_TOKENS = 128


def config(**overrides) -> LlamaConfig:
    shape = dict(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
                 num_key_value_heads=8, vocab_size=128256, max_position_embeddings=8192, rms_norm_eps=1e-5,
                 rope_parameters={"rope_theta": 500000.0, "rope_type": "default"}, tie_word_embeddings=False)
    cfg = LlamaConfig(**{**shape, **overrides})
    cfg.use_cache = False  # prefill: logits only, no cache outputs
    return cfg


def load(weights: str = DEFAULT_WEIGHTS, **overrides):
    cfg = config(**overrides)
    with torch.device("meta" if weights == "meta" else "cpu"):
        model = LlamaForCausalLM(cfg)
    input_ids = torch.randint(0, cfg.vocab_size, (1, PREFILL_TOKENS))  # real ids: they run once weights are given
    return model, (input_ids,)
