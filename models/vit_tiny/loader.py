import torch
from transformers import ViTConfig, ViTModel


def load():
    # Small config (the default is ViT-Base/16 on 224x224): same ops, a fraction of the time.
    config = ViTConfig(image_size=64, patch_size=16, hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                       intermediate_size=128)
    model = ViTModel(config)  # random weights: no download
    return model, (torch.randn(1, 3, 64, 64),)
