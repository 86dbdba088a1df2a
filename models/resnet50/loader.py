import torch
from transformers import ResNetConfig, ResNetModel


def load():
    model = ResNetModel(ResNetConfig())  # default config = ResNet-50, random weights: no download
    return model, (torch.randn(1, 3, 224, 224),)
