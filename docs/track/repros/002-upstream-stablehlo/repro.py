"""aten.slice_scatter.default alone: torch-mlir fails on it.
Needs only the upstream packages: torch, torch-mlir.
Expected to fail at EXPECTED_STAGE with EXPECTED_ERROR; TAKEN_WITH names the versions it was made with.
"""
import torch
from torch_mlir import fx

EXPECTED_STAGE = 'stablehlo'
EXPECTED_ERROR = 'LoweringFailed: loc(unknown): error: expects bounds of the scatter dimensions of updates to be same as the bounds of the corresponding dimensions of scatter indices. For scatter dimension 2, updates bound is 3 , scatter_indices bound is 20.'
TAKEN_WITH = 'torch 2.13.0+cpu, torch-mlir 20261001, transformers 5.24.0, jax 0.10.2, tt-plugin jax-tt-plugin 0.1.3'


def step(name):
    print("stage", name, flush=True)


class Op(torch.nn.Module):
    def forward(self, a0, a1):
        return torch.ops.aten.slice_scatter.default(a0, a1, 2, 1, 60, 3)


torch.manual_seed(0)
a0 = torch.randn((3, 5, 8), dtype=torch.float32)
a1 = torch.randn((119,), dtype=torch.float32).as_strided((3, 5, 3), (40, 8, 3))
step("torchfx")
fx.export_and_import(Op(), a0, a1, output_type="raw")
step("stablehlo")
print(fx.export_and_import(Op(), a0, a1, output_type="stablehlo"))
