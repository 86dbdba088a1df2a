import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_implementation import UNet  # noqa: E402


def load():
    model = UNet(in_channels=3, n_classes=2, depth=3, width=16)  # random weights
    return model, (torch.randn(1, 3, 64, 64),)
