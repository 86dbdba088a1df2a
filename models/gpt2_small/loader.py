import torch
from transformers import GPT2Config, GPT2Model


def load():
    # Small config (GPT-2 small has 12 layers of 768 and a 50k vocabulary): 2 layers of 128, vocabulary 1024.
    # The special tokens move into the smaller vocabulary (GPT-2's 50256 lies outside it and transformers warns).
    config = GPT2Config(vocab_size=1024, n_positions=128, n_embd=128, n_layer=2, n_head=2, bos_token_id=1023,
                        eos_token_id=1023)
    model = GPT2Model(config)  # random weights: no download
    model.config.use_cache = False  # no KV-cache outputs: one tensor out
    input_ids = torch.randint(0, config.vocab_size, (1, 32))
    return model, (input_ids,)
