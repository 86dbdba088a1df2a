"""aten.avg_pool2d.default alone: torch-mlir fails on it.
Needs only the upstream packages: torch, torch-mlir.
Expected to fail at EXPECTED_STAGE with EXPECTED_ERROR; TAKEN_WITH names the versions it was made with.
"""
import torch
from torch_mlir import fx

EXPECTED_STAGE = 'stablehlo'
EXPECTED_ERROR = "LoweringFailed: loc(unknown): error: 'stablehlo.reduce_window' op inferred type(s) 'tensor<1x640x0x0xf32>' are incompatible with return type(s) of operation 'tensor<1x640x1x1xf32>'"
TAKEN_WITH = 'torch 2.13.0+cpu, torch-mlir 20261001, transformers 5.24.0, jax 0.10.2, tt-plugin jax-tt-plugin 0.1.3'


def step(name):
    print("stage", name, flush=True)


class Op(torch.nn.Module):
    def forward(self, a0):
        return torch.ops.aten.avg_pool2d.default(a0, [128, 128], [128, 128], [0, 0], True)


torch.manual_seed(0)
a0 = torch.randn((1, 640, 18, 18), dtype=torch.float32)
step("torchfx")
fx.export_and_import(Op(), a0, output_type="raw")
step("stablehlo")
print(fx.export_and_import(Op(), a0, output_type="stablehlo"))
