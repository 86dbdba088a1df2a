"""hf/vits (transformers, random weights) through torch.export and torch-mlir.
Needs only the upstream packages: torch, torch-mlir, transformers.
Expected to fail at EXPECTED_STAGE with EXPECTED_ERROR; TAKEN_WITH names the versions it was made with.
"""
import torch
import transformers
from torch_mlir import fx
from torch_mlir.extras.fx_decomp_util import get_decomposition_table

EXPECTED_STAGE = 'torchfx'
EXPECTED_ERROR = 'torchfx: FIX ME: Unimplemented call_function: target=<function sym_ite at 0x7efef353d120>, {\'val\': Piecewise((1, Eq(u28, 1)), (0, True)), \'stack_trace\': \'File "ttbench/hf_zoo.py", line 206, in forward\\n    out = self.model(**dict(zip(self.names, tensors)))\\n  File ".venv/lib/python3.11/'
TAKEN_WITH = 'torch 2.13.0+cpu, torch-mlir 20261001, transformers 5.24.0, jax 0.10.2, tt-plugin jax-tt-plugin 0.1.3'


def step(name):
    print("stage", name, flush=True)

# The default config made small: these attributes set on it (per sub-config), as ttbench's zoo does.
CHANGES = {'ffn_dim': 128, 'hidden_size': 64, 'num_hidden_layers': 2}


class ByPosition(torch.nn.Module):
    """The model with its inputs by position, its output's tensors out."""

    def __init__(self, model, names):
        super().__init__()
        self.model, self.names = model, names

    def forward(self, *tensors):
        out = self.model(**dict(zip(self.names, tensors)))
        return tuple(tensors_in(out.to_tuple() if hasattr(out, "to_tuple") else out))


def tensors_in(value):
    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from tensors_in(v)


def shrink(config, changes):
    for name, value in changes.items():
        if isinstance(value, dict) and isinstance(getattr(config, name, None), transformers.PretrainedConfig):
            shrink(getattr(config, name), value)
        else:
            setattr(config, name, value)


step("build")
config = transformers.AutoConfig.for_model('vits')
shrink(config, CHANGES)
torch.manual_seed(0)
inputs = {
    'input_ids': torch.randint(0, 8, (3, 5), dtype=torch.int64),
}
model = ByPosition(transformers.AutoModel.from_config(config).eval(), tuple(inputs)).eval()
with torch.no_grad():
    model(*inputs.values())
step("fx")
program = torch.export.export(model, tuple(inputs.values()), strict=False)
program = program.run_decompositions(get_decomposition_table())
step("torchfx")
fx.export_and_import(program, output_type="raw", decomposition_table=[],
                     experimental_support_mutation=True)
step("stablehlo")
module = fx.export_and_import(program, output_type="stablehlo", decomposition_table=[],
                              experimental_support_mutation=True)
