import torch
from transformers import SegformerConfig, SegformerForSemanticSegmentation


def load():
    # Segmentation model; a small config (2 encoder stages instead of 4, 64x64 input) keeps it quick.
    config = SegformerConfig(num_encoder_blocks=2, depths=[1, 1], sr_ratios=[8, 4], hidden_sizes=[16, 32],
                             patch_sizes=[7, 3], strides=[4, 2], num_attention_heads=[1, 2], mlp_ratios=[4, 4],
                             decoder_hidden_size=64, num_labels=8)
    model = SegformerForSemanticSegmentation(config)  # random weights: no download
    # Seeded weights that keep activations at unit scale through the depth (He init, fan-in): the library's own
    # small init shrinks them layer by layer (mobilenet_v2 gave outputs of ~1e-21), and then every tolerance passes.
    for layer in model.modules():
        if isinstance(layer, (torch.nn.Conv2d, torch.nn.ConvTranspose2d, torch.nn.Linear)):
            torch.nn.init.kaiming_normal_(layer.weight, nonlinearity="relu")
    return model, (torch.randn(1, 3, 64, 64),)
