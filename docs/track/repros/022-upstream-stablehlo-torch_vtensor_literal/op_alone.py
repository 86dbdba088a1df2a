"""aten.scatter_reduce.two alone: torch-mlir fails on it.
Needs only the upstream packages: torch, torch-mlir.
Expected to fail at EXPECTED_STAGE with EXPECTED_ERROR; TAKEN_WITH names the versions it was made with.
"""
import torch
from torch_mlir import fx

EXPECTED_STAGE = 'stablehlo'
EXPECTED_ERROR = 'LoweringFailed: loc(unknown): error: failed to legalize operation \'torch.constant.bool\': %0 = "torch.constant.bool"() <{value = false}> : () -> !torch.bool'
TAKEN_WITH = 'torch 2.13.0+cpu, torch-mlir 20261001, transformers 5.24.0, jax 0.10.2, tt-plugin jax-tt-plugin 0.1.3'


def step(name):
    print("stage", name, flush=True)


class Op(torch.nn.Module):
    def forward(self, a0, a1, a2):
        return torch.ops.aten.scatter_reduce.two(a0, 0, a1, a2, 'amin', include_self=False)


torch.manual_seed(0)
a0 = torch.randn((196608,), dtype=torch.float32)
a1 = torch.randint(0, 2, (15,), dtype=torch.int64)
a2 = torch.randn((15,), dtype=torch.float32)
step("torchfx")
fx.export_and_import(Op(), a0, a1, a2, output_type="raw")
step("stablehlo")
print(fx.export_and_import(Op(), a0, a1, a2, output_type="stablehlo"))
