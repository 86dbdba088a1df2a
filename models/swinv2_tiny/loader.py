import torch
from transformers import Swinv2Config, Swinv2Model


def load():
    # Small config (the default is 224x224 with 4 stages): 2 stages on 64x64 keep the sweep within CI time while
    # keeping what matters for bringup: windowed attention whose shifted-window mask is built with in-place writes.
    config = Swinv2Config(image_size=64, patch_size=4, embed_dim=32, depths=[2, 2], num_heads=[2, 4], window_size=4)
    model = Swinv2Model(config)  # random weights: no download
    return model, (torch.randn(1, 3, 64, 64),)
