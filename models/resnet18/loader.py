import torch
from transformers import ResNetConfig, ResNetModel


def load():
    config = ResNetConfig(layer_type="basic", depths=[2, 2, 2, 2], hidden_sizes=[64, 128, 256, 512])
    model = ResNetModel(config)  # ResNet-18 layout, random weights: no download
    return model, (torch.randn(1, 3, 224, 224),)
