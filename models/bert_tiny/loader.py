import torch
from transformers import BertConfig, BertModel


def load():
    config = BertConfig(vocab_size=1024, hidden_size=128, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=512, max_position_embeddings=128)
    model = BertModel(config)  # random weights: no download
    input_ids = torch.randint(0, config.vocab_size, (1, 32))
    return model, (input_ids,)
