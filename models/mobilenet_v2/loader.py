import torch
from transformers import MobileNetV2Config, MobileNetV2Model


def load():
    model = MobileNetV2Model(MobileNetV2Config())  # default config, random weights: no download
    return model, (torch.randn(1, 3, 224, 224),)
