"""A small U-Net, written for ttbench after the architecture of github.com/jvanvugt/pytorch-unet (MIT licence,
see LICENSE). Minimum code to build it: conv blocks, max-pool down path,
transposed-conv up path with skip connections cropped and concatenated."""
import torch
from torch import nn


class ConvBlock(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv2d(in_channels, out_channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(out_channels, out_channels, 3, padding=1), nn.ReLU(),
        )

    def forward(self, x):
        return self.layers(x)


class UpBlock(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.up = nn.ConvTranspose2d(in_channels, out_channels, kernel_size=2, stride=2)
        self.block = ConvBlock(in_channels, out_channels)

    def forward(self, x, skip):
        x = self.up(x)
        dy, dx = (skip.shape[2] - x.shape[2]) // 2, (skip.shape[3] - x.shape[3]) // 2
        skip = skip[:, :, dy:dy + x.shape[2], dx:dx + x.shape[3]]  # centre crop, as the original does
        return self.block(torch.cat([x, skip], dim=1))


class UNet(nn.Module):
    def __init__(self, in_channels: int = 3, n_classes: int = 2, depth: int = 3, width: int = 16):
        super().__init__()
        channels = [width * 2 ** i for i in range(depth)]
        self.down = nn.ModuleList()
        previous = in_channels
        for c in channels:
            self.down.append(ConvBlock(previous, c))
            previous = c
        self.up = nn.ModuleList(UpBlock(c, c // 2) for c in reversed(channels[1:]))
        self.head = nn.Conv2d(channels[0], n_classes, kernel_size=1)

    def forward(self, x):
        skips = []
        for i, block in enumerate(self.down):
            x = block(x)
            if i < len(self.down) - 1:
                skips.append(x)
                x = nn.functional.max_pool2d(x, 2)
        for block, skip in zip(self.up, reversed(skips)):
            x = block(x, skip)
        return self.head(x)
