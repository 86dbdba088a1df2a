"""The tracker's standalone scripts: a model or one op through the upstream route alone (torch.export, torch-mlir,
the Tenstorrent plugin), never importing ttbench. One script is both the triage's bare route (run in a fresh
process: does the upstream route fail where ttbench failed?) and the reproduction filed upstream.

Each script prints "stage NAME" before each step, so whoever runs it sees (and triage reads) how far it got; an
exception ends it with exit 1 and the upstream tool's own message.
"""
from __future__ import annotations

import re
from typing import Optional

from ... import vision_zoo

# The steps of the bare route, named as ttbench's stages are (the plugin's compile is one step: "tt").
BARE_STEPS = ("build", "fx", "onnx", "torchfx", "stablehlo", "tt")  # fx: the export route; onnx: the ONNX one

# Only ttbench's own words go into the docstring; every text that comes from a run (the error, the stage, the
# versions: all of them can come from a results database) is a literal made by repr, below it.
_HEADER = '''"""{title}
Needs only the upstream packages: {needs}.
Expected to fail at EXPECTED_STAGE with EXPECTED_ERROR; TAKEN_WITH names the versions it was made with.
"""
import torch
{imports}
EXPECTED_STAGE = {stage!r}
EXPECTED_ERROR = {error!r}
TAKEN_WITH = {versions!r}


def step(name):
    print("stage", name, flush=True)
'''

_TT_STEP = '''
step("tt")  # the Tenstorrent compiler (tt-mlir, through its PJRT plugin): StableHLO -> TTIR -> TTNN -> flatbuffer
# Without a chip, TT_COMPILE_ONLY_SYSTEM_DESC must name a system descriptor (ttbench keeps one in ~/.cache/ttbench).
from jax._src import xla_bridge
from jax._src.lib import xla_client

client = xla_bridge.get_backend("tt")
client.compile_and_load({source}, xla_client.DeviceList(tuple(client.devices()[:1])), xla_client.CompileOptions())
'''


def _literal(value) -> Optional[str]:
    """Python source for a non-tensor argument, or None where there is no faithful one."""
    import torch

    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, float):
        return repr(value) if value == value and abs(value) != float("inf") else f"float({str(value)!r})"
    if isinstance(value, (torch.dtype, torch.memory_format, torch.layout)):
        return repr(value)  # torch.float32, torch.contiguous_format, torch.strided
    if isinstance(value, torch.device):
        return f"torch.device({str(value)!r})"
    return None


def tensor_source(shape, dtype, stride=None, high: Optional[int] = None) -> Optional[str]:
    """Source making a random tensor like the one described (its strides too, when not contiguous)."""
    import torch

    dims = ", ".join(str(int(d)) for d in shape)
    size = f"({dims},)" if len(shape) == 1 else f"({dims})"
    if dtype.is_floating_point:
        make = f"torch.randn({size}, dtype={dtype!r})"
    elif dtype == torch.bool:
        make = f"torch.ones({size}, dtype=torch.bool)"
    elif not dtype.is_complex:
        make = f"torch.randint(0, {max(int(high or 2), 1)}, {size}, dtype={dtype!r})"
    else:
        return None
    if stride is not None and tuple(stride) != tuple(torch.empty(tuple(shape)).stride()) and len(shape):
        # a view's strides (a transposed input) can be what the compiler trips on: kept
        extent = 1 + sum((int(d) - 1) * int(s) for d, s in zip(shape, stride))
        flat = make.replace(size, f"({extent},)", 1)
        make = f"{flat}.as_strided({size}, {tuple(int(s) for s in stride)})"
    return make


def op_script(node, stage: str, error: str, versions: dict, mlir_file: Optional[str] = None) -> Optional[str]:
    """One FX node as a script: a module calling only that aten op on random inputs of the shapes, dtypes and
    strides the model fed it, through torch.export + torch-mlir to StableHLO (stage "torchfx"/"stablehlo"), or,
    for a Tenstorrent stage, the op's StableHLO as ttbench handed it over (`mlir_file`, beside the script) through
    the plugin. None when an argument has no faithful source form (the model-level script is the repro then)."""
    import torch

    names: list = []
    lines: list = []

    def source(value) -> Optional[str]:
        if isinstance(value, torch.fx.Node):
            val = value.meta.get("val")
            if isinstance(val, torch.Tensor):
                made = tensor_source(tuple(val.shape), val.dtype, val.stride())
                if made is None:
                    return None
                name = f"a{len(names)}"
                names.append(name)
                lines.append(f"{name} = {made}")
                return name
            return _literal(val) if isinstance(val, (int, float, bool)) else None
        if isinstance(value, (list, tuple)):
            parts = [source(v) for v in value]
            if any(p is None for p in parts):
                return None
            return ("[" + ", ".join(parts) + "]") if isinstance(value, list) else ("(" + ", ".join(parts) + ",)")
        return _literal(value)

    args = [source(a) for a in node.args]
    kwargs = {k: source(v) for k, v in node.kwargs.items()}
    if any(a is None for a in args) or any(v is None for v in kwargs.values()):
        return None
    call = f"torch.ops.{node.target}({', '.join(args + [f'{k}={v}' for k, v in kwargs.items()])})"
    tt = stage not in ("fx", "torchfx", "stablehlo")
    if tt and mlir_file is None:
        return None
    title = f"{_plain(str(node.target))} alone: {'the Tenstorrent compiler' if tt else 'torch-mlir'} fails on it."
    head = _HEADER.format(title=title, needs="torch, jax, jax-tt-plugin" if tt else "torch, torch-mlir",
                          versions=_versions_line(versions), stage="tt" if tt else stage, error=error,
                          imports="" if tt else "from torch_mlir import fx\n")
    if tt:
        body = f'\nwith open(__file__.rsplit("/", 1)[0] + "/{mlir_file}", "rb") as f:  # the op\'s StableHLO, beside this\n' \
               '    source = f.read()\n' + _TT_STEP.format(source="source")
        return head + body
    signature = ", ".join(["self"] + names)
    arguments = "".join(f"{n}, " for n in names)  # then output_type=...
    body = f'''

class Op(torch.nn.Module):
    def forward({signature}):
        return {call}


torch.manual_seed(0)
{chr(10).join(lines)}
step("torchfx")
fx.export_and_import(Op(), {arguments}output_type="raw")
step("stablehlo")
print(fx.export_and_import(Op(), {arguments}output_type="stablehlo"))
'''
    return head + body


def hf_model_script(arch: str, changes: dict, inputs: dict, tt: bool, versions: dict, stage: str = "?",
                    error: str = "?", frontend: str = "export") -> str:
    """A transformers architecture (its default config with the shrink's `changes` set on it, as
    hf_zoo.shrink_changes gives them) through the upstream route: torch.export with
    torch-mlir's decompositions ("fx"), torch-mlir's importer ("torchfx") and lowering ("stablehlo", weights inlined
    as torch-mlir's export_and_import does), then, with `tt`, the Tenstorrent plugin. `inputs`: name -> tensor (the
    script makes random ones of the same shapes and dtypes, integers in the same range). frontend="onnx": the
    ONNX exporter (dynamo) and torch-mlir's ONNX import tool and pipelines instead of torch.export."""
    made = "\n".join(f"    {name!r}: {tensor_source(tuple(t.shape), t.dtype, None, _high(t))},"
                     for name, t in inputs.items())
    onnx = frontend == "onnx"
    head = _HEADER.format(title=f"hf/{_plain(arch)} (transformers, random weights) through "
                          + ("the ONNX exporter" if onnx else "torch.export") + " and torch-mlir"
                          + (" and the Tenstorrent compiler." if tt else "."),
                          needs="torch, torch-mlir, transformers" + (", onnx, onnxscript" if onnx else "")
                          + (", jax, jax-tt-plugin" if tt else ""),
                          versions=_versions_line(versions), stage=stage, error=error,
                          imports="import transformers\n" + ("" if onnx else "from torch_mlir import fx\n"
                                  "from torch_mlir.extras.fx_decomp_util import get_decomposition_table\n"))
    body = f'''
# The default config made small: these attributes set on it (per sub-config), as ttbench's zoo does.
CHANGES = {_sorted(changes)!r}


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
config = transformers.AutoConfig.for_model({arch!r})
shrink(config, CHANGES)
torch.manual_seed(0)
inputs = {{
{made}
}}
model = ByPosition(transformers.AutoModel.from_config(config).eval(), tuple(inputs)).eval()
with torch.no_grad():
    model(*inputs.values())
''' + (_ONNX_ROUTE if frontend == "onnx" else _EXPORT_ROUTE)
    hand_over = ('\n# The plugin takes StableHLO alone; torch-mlir leaves a few tensor constants in the arith dialect.\n'
                 'text = str(module).replace("arith.constant dense", "stablehlo.constant dense")\n')
    return head + body + (hand_over + _TT_STEP.format(source="text.encode()") if tt else "")


def vision_model_script(name: str, inputs: tuple, tt: bool, versions: dict, stage: str = "?", error: str = "?",
                        frontend: str = "export") -> str:
    """A timm/ or torchvision/ entry (vision_zoo.py: `pretrained=False`, a detector's backbone) through the same
    upstream route as hf_model_script. torchvision's import is made sound as ttbench does it (its two ops' schemas
    defined where its native library does not load), which the script says."""
    import_fix = '''import os
import sys

# PyPI's torchvision is built against the CUDA torch: under the CPU torch its native library does not load and its
# import fails on two ops it registers fake kernels for; their schemas (no kernels) make it import. ttbench keeps
# timm and torchvision in a folder of their own beside the environment's site-packages.
if not hasattr(torch.ops.torchvision, "nms"):
    SCHEMAS = torch.library.Library("torchvision", "FRAGMENT")
    for op in ("nms", "qnms"):
        SCHEMAS.define(op + "(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
sys.path.append(os.environ.get("TTBENCH_VISION_PACKAGES") or os.path.join(sys.prefix, "vision-packages"))
import torchvision
'''
    zoo, _, entry = name.partition("/")
    made = ", ".join(tensor_source(tuple(t.shape), t.dtype, None, _high(t)) for t in inputs)
    if zoo == "timm":
        build = f"import timm\nbase = timm.create_model({vision_zoo.timm_families()[entry]!r}, pretrained=False)"
    else:
        kind = vision_zoo.torchvision_models()[entry]
        call = (f"torchvision.models.get_model({entry!r}, weights=None"
                + (", weights_backbone=None)" if kind in ("detection", "segmentation") else ")"))
        build = f"base = {call}" + (".backbone  # the detector's backbone with its FPN" if kind == "detection" else "")
    onnx = frontend == "onnx"
    head = _HEADER.format(title=f"{_plain(name)} (random weights) through "
                          + ("the ONNX exporter" if onnx else "torch.export") + " and torch-mlir"
                          + (" and the Tenstorrent compiler." if tt else "."),
                          needs="torch, torch-mlir, " + ("timm, torchvision" if zoo == "timm" else "torchvision")
                          + (", onnx, onnxscript" if onnx else "") + (", jax, jax-tt-plugin" if tt else ""),
                          versions=_versions_line(versions), stage=stage, error=error,
                          imports="" if onnx else ("from torch_mlir import fx\n"
                                                   "from torch_mlir.extras.fx_decomp_util import "
                                                   "get_decomposition_table\n"))
    body = import_fix + f'''

class TensorsOut(torch.nn.Module):
    """The model with its output's tensors out, in order."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, *tensors):
        return tuple(tensors_in(self.model(*tensors)))


def tensors_in(value):
    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from tensors_in(v)
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from tensors_in(v)


step("build")
torch.manual_seed(0)
{build}
model = TensorsOut(base.eval()).eval()
inputs = {{f"x{{i}}": t for i, t in enumerate(({made},))}}
with torch.no_grad():
    model(*inputs.values())
''' + (_ONNX_ROUTE if onnx else _EXPORT_ROUTE)
    hand_over = ('\n# The plugin takes StableHLO alone; torch-mlir leaves a few tensor constants in the arith dialect.\n'
                 'text = str(module).replace("arith.constant dense", "stablehlo.constant dense")\n')
    return head + body + (hand_over + _TT_STEP.format(source="text.encode()") if tt else "")


_EXPORT_ROUTE = '''step("fx")
program = torch.export.export(model, tuple(inputs.values()), strict=False)
program = program.run_decompositions(get_decomposition_table())
step("torchfx")
fx.export_and_import(program, output_type="raw", decomposition_table=[],
                     experimental_support_mutation=True)
step("stablehlo")
module = fx.export_and_import(program, output_type="stablehlo", decomposition_table=[],
                              experimental_support_mutation=True)
'''

_ONNX_ROUTE = '''import os

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
'''


def _sorted(value):
    """Nested dicts with their keys in order (a script that reads the same every run)."""
    return {k: _sorted(value[k]) for k in sorted(value)} if isinstance(value, dict) else value


def _high(t) -> Optional[int]:
    """One past the largest value of an integer input (token ids stay below the vocabulary size)."""
    if t.dtype.is_floating_point or t.dtype.is_complex or not t.numel():
        return None
    return max(int(t.max()) + 1, 1)


def _versions_line(versions: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in versions.items() if v and k != "ttbench") or "unknown versions"


_PLAIN = re.compile(r"[\w.:/+-]{1,120}")


def _plain(name: str) -> str:
    """A name (an op, an architecture) as the docstring may show it: plain characters only, else a stand-in (the
    script's code names it by a repr'd literal)."""
    return name if _PLAIN.fullmatch(name) else "(a name with unusual characters)"
