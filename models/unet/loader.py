import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_implementation import UNet  # noqa: E402


def load():
    model = UNet(in_channels=3, n_classes=2, depth=3, width=16)  # random weights
    # Seeded weights that keep activations at unit scale through the depth (He init, fan-in): the library's own
    # small init shrinks them layer by layer (mobilenet_v2 gave outputs of ~1e-21), and then every tolerance passes.
    for layer in model.modules():
        if isinstance(layer, (torch.nn.Conv2d, torch.nn.ConvTranspose2d, torch.nn.Linear)):
            torch.nn.init.kaiming_normal_(layer.weight, nonlinearity="relu")
    return model, (torch.randn(1, 3, 64, 64),)
