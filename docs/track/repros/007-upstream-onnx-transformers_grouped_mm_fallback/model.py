"""hf/afmoe (transformers, random weights) through the ONNX exporter and torch-mlir.
Needs only the upstream packages: torch, torch-mlir, transformers, onnx, onnxscript.
Expected to fail at EXPECTED_STAGE with EXPECTED_ERROR; TAKEN_WITH names the versions it was made with.
"""
import torch
import transformers

EXPECTED_STAGE = 'onnx'
EXPECTED_ERROR = "onnx: torch.onnx.export failed: DispatchError: No ONNX function found for <OpOverload(op='transformers.grouped_mm_fallback', overload='default')>. Failure message: No decompositions registered for the real-valued input"
TAKEN_WITH = 'torch 2.13.0+cpu, torch-mlir 20261001, transformers 5.24.0, jax 0.10.2, tt-plugin jax-tt-plugin 0.1.3'


def step(name):
    print("stage", name, flush=True)

# The default config made small: these attributes set on it (per sub-config), as ttbench's zoo does.
CHANGES = {'head_dim': 16, 'hidden_size': 64, 'intermediate_size': 128, 'layer_types': ['sliding_attention', 'full_attention'], 'moe_intermediate_size': 128, 'num_attention_heads': 4, 'num_experts': 4, 'num_experts_per_tok': 2, 'num_hidden_layers': 2, 'num_key_value_heads': 4, 'use_cache': False}


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
config = transformers.AutoConfig.for_model('afmoe')
shrink(config, CHANGES)
torch.manual_seed(0)
inputs = {
    'input_ids': torch.randint(0, 8, (3, 5), dtype=torch.int64),
}
model = ByPosition(transformers.AutoModel.from_config(config).eval(), tuple(inputs)).eval()
with torch.no_grad():
    model(*inputs.values())
import os

from torch_mlir import ir
from torch_mlir._mlir_libs import _stablehlo
from torch_mlir.dialects import torch as torch_dialect
from torch_mlir.passmanager import PassManager
from torch_mlir.tools.import_onnx import __main__ as import_onnx

here = os.path.dirname(os.path.abspath(__file__))
step("onnx")
with torch.no_grad():
    torch.onnx.export(model, tuple(inputs.values()), dynamo=True).save(os.path.join(here, "model.onnx"))
step("torchfx")  # torch-mlir's import tool: shape inference, the importer, the verifier
import_onnx.main(import_onnx.parse_arguments([os.path.join(here, "model.onnx"), "-o",
                                              os.path.join(here, "model.torch.mlir")]))
step("stablehlo")
context = ir.Context()
torch_dialect.register_dialect(context)
_stablehlo.register_dialect(context)
with context, open(os.path.join(here, "model.torch.mlir")) as f:
    module = ir.Module.parse(f.read())
    PassManager.parse("builtin.module(torch-onnx-to-torch-backend-pipeline, "
                      "torch-backend-to-stablehlo-backend-pipeline)").run(module.operation)
    for op in module.body.operations:  # the importer names the function after the graph; PJRT runs @main
        if op.operation.name == "func.func":
            op.operation.attributes["sym_name"] = ir.StringAttr.get("main")
