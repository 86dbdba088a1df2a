"""aten.fft_fftn.default alone: torch-mlir fails on it.
Needs only the upstream packages: torch, torch-mlir.
Expected to fail at EXPECTED_STAGE with EXPECTED_ERROR; TAKEN_WITH names the versions it was made with.
"""
import torch
from torch_mlir import fx

EXPECTED_STAGE = 'stablehlo'
EXPECTED_ERROR = 'LoweringFailed: loc(unknown): error: failed to legalize operation \'torch.operator\' that was explicitly marked illegal: %9 = "torch.operator"(%7, %8, %1, %0) <{name = "torch.aten._fft_c2c"}> : (!torch.vtensor<[3,5,64],complex<f32>>, !torch.list<int>, !torch.int, !torch.bool) -> !torch.vtensor<[3,5,64],complex<f32>>'
TAKEN_WITH = 'torch 2.13.0+cpu, torch-mlir 20261001, transformers 5.24.0, jax 0.10.2, tt-plugin jax-tt-plugin 0.1.3'


def step(name):
    print("stage", name, flush=True)


class Op(torch.nn.Module):
    def forward(self, a0):
        return torch.ops.aten.fft_fftn.default(a0, None, [1, 2])


torch.manual_seed(0)
a0 = torch.randn((3, 5, 64), dtype=torch.float32)
step("torchfx")
fx.export_and_import(Op(), a0, output_type="raw")
step("stablehlo")
print(fx.export_and_import(Op(), a0, output_type="stablehlo"))
