"""aten.slice_scatter.default alone: torch-mlir fails on it.
Needs only the upstream packages: torch, torch-mlir.
Expected to fail at EXPECTED_STAGE with EXPECTED_ERROR; TAKEN_WITH names the versions it was made with.
"""
import torch
from torch_mlir import fx

EXPECTED_STAGE = 'torchfx'
EXPECTED_ERROR = 'worker crashed or hung: worker killed by SIGKILL'
TAKEN_WITH = 'torch 2.13.0+cpu, torch-mlir 20261001, transformers 5.24.0, jax 0.10.2, tt-plugin jax-tt-plugin 0.1.3'


def step(name):
    print("stage", name, flush=True)


class Op(torch.nn.Module):
    def forward(self, a0, a1):
        return torch.ops.aten.slice_scatter.default(a0, a1, 3, 256, 9223372036854775807)


torch.manual_seed(0)
a0 = torch.randn((3, 4, 5, 256), dtype=torch.float32)
a1 = torch.randn((15104,), dtype=torch.float32).as_strided((3, 4, 5, 0), (5120, 1280, 256, 1))
step("torchfx")
fx.export_and_import(Op(), a0, a1, output_type="raw")
step("stablehlo")
print(fx.export_and_import(Op(), a0, a1, output_type="stablehlo"))
