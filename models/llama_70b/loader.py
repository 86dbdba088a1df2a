import importlib.util
import os

# Llama-3.1-70B's shapes: 80 decoder layers of width 8192 (MLP 28672, 64 query heads sharing 8 key/value heads),
# vocabulary 128256. 70.6 B parameters (282 GB in fp32): built on the meta device unless asked otherwise.
_spec = importlib.util.spec_from_file_location("llama_8b_loader", os.path.join(os.path.dirname(__file__), "..",
                                                                               "llama_8b", "loader.py"))
_llama = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_llama)

DEFAULT_WEIGHTS = "meta"
VARIANTS = _llama.VARIANTS


def load(weights: str = DEFAULT_WEIGHTS, variant: str = "prefill", **overrides):
    shape = dict(hidden_size=8192, intermediate_size=28672, num_hidden_layers=80, num_attention_heads=64,
                 num_key_value_heads=8)
    return _llama.load(weights=weights, variant=variant, **{**shape, **overrides})
