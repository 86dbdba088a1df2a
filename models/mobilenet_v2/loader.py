import torch
from transformers import MobileNetV2Config, MobileNetV2Model


def load():
    model = MobileNetV2Model(MobileNetV2Config())  # default config, random weights: no download
    # Seeded weights that keep activations at unit scale through the depth (He init, fan-in): the library's own
    # small init shrinks them layer by layer (mobilenet_v2 gave outputs of ~1e-21), and then every tolerance passes.
    for layer in model.modules():
        if isinstance(layer, (torch.nn.Conv2d, torch.nn.ConvTranspose2d, torch.nn.Linear)):
            torch.nn.init.kaiming_normal_(layer.weight, nonlinearity="relu")
    return model, (torch.randn(1, 3, 224, 224),)
