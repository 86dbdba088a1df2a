"""hf/t5gemma2 (transformers, random weights) through torch.export and torch-mlir.
Needs only the upstream packages: torch, torch-mlir, transformers.
Expected to fail at EXPECTED_STAGE with EXPECTED_ERROR; TAKEN_WITH names the versions it was made with.
"""
import torch
import transformers
from torch_mlir import fx
from torch_mlir.extras.fx_decomp_util import get_decomposition_table

EXPECTED_STAGE = 'stablehlo'
EXPECTED_ERROR = "stablehlo: torch.aten._assert_tensor_metadata or torch.aten.eq.Scalar or torch.aten.index_put at modeling_t5gemma2.py:629 was not lowered (torch-mlir names only an operand it could not convert: failed to legalize operation 'torch.constant.int' (no location of its own: shown at its user 'torch.prim.ListConstruct'))\n  in the pass pipeline 'Lowering Torch Backend IR -> StableHLO'"
TAKEN_WITH = 'torch 2.13.0+cpu, torch-mlir 20261001, transformers 5.24.0, jax 0.10.2, tt-plugin jax-tt-plugin 0.1.3'


def step(name):
    print("stage", name, flush=True)

# The default config made small: these attributes set on it (per sub-config), as ttbench's zoo does.
CHANGES = {'decoder': {'head_dim': 16, 'hidden_size': 64, 'intermediate_size': 128, 'layer_types': ['sliding_attention', 'full_attention'], 'num_attention_heads': 4, 'num_hidden_layers': 2, 'num_key_value_heads': 2}, 'encoder': {'text_config': {'head_dim': 16, 'hidden_size': 64, 'intermediate_size': 128, 'layer_types': ['sliding_attention', 'full_attention'], 'num_attention_heads': 4, 'num_hidden_layers': 2, 'num_key_value_heads': 2}, 'vision_config': {'hidden_size': 64, 'intermediate_size': 128, 'num_attention_heads': 4, 'num_hidden_layers': 2}}}


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
config = transformers.AutoConfig.for_model('t5gemma2')
shrink(config, CHANGES)
torch.manual_seed(0)
inputs = {
    'input_ids': torch.randint(0, 8, (3, 5), dtype=torch.int64),
    'decoder_input_ids': torch.randint(0, 220031, (3, 4), dtype=torch.int64),
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
