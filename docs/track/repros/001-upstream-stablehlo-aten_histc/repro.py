"""aten.histc.default alone: torch-mlir fails on it.
Needs only the upstream packages: torch, torch-mlir.
Expected to fail at EXPECTED_STAGE with EXPECTED_ERROR; TAKEN_WITH names the versions it was made with.
"""
import torch
from torch_mlir import fx

EXPECTED_STAGE = 'stablehlo'
EXPECTED_ERROR = 'LoweringFailed: loc(unknown): error: failed to legalize operation \'torch.operator\' that was explicitly marked illegal: %3 = "torch.operator"(%arg0, %0, %1, %2) <{name = "torch.aten.histc"}> : (!torch.vtensor<[30],f32>, !torch.int, !torch.int, !torch.int) -> !torch.vtensor<[4],f32>'
TAKEN_WITH = 'torch 2.13.0+cpu, torch-mlir 20261001, transformers 5.24.0, jax 0.10.2, tt-plugin jax-tt-plugin 0.1.3'


def step(name):
    print("stage", name, flush=True)


class Op(torch.nn.Module):
    def forward(self, a0):
        return torch.ops.aten.histc.default(a0, 4, 0, 3)


torch.manual_seed(0)
a0 = torch.randn((30,), dtype=torch.float32)
step("torchfx")
fx.export_and_import(Op(), a0, output_type="raw")
step("stablehlo")
print(fx.export_and_import(Op(), a0, output_type="stablehlo"))
