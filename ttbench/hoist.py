"""Hoisting inlined constants out of a module: into function arguments, or into `ml_program.global`s.

Works on the live module of the `torchfx` and `stablehlo` stages, through torch-mlir's bindings: a clone of the
module is edited (new block arguments or globals, `replace_all_uses_with`, the constant erased), and the values
leave as numpy arrays read from the attributes bit for bit (NaN, ±inf, bf16 kept). Every tensor constant of
@main with more than `min_numel` elements moves, except splats (one element in the IR; hoisting them would turn
4 bytes into a full-size tensor). to="args": it becomes a new argument after the existing ones (named after the
model weight it holds where that is known, role "parameter" for weights, "constant" otherwise), so tt-mlir can
treat it as a weight. to="globals" (stablehlo only): it becomes an `ml_program.global` read with
`global_load_const` (or `global_load` when mutable=True). The tensors are kept in `Hoisted.weights` and can be
saved to and loaded from a safetensors file.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from .analysis.constants import digest
from .core import ArgInfo, BadInput, InternalError, Stage, StageName
from .ir.dialects import CONSTANT_VALUE_ATTRS
from .core import human_bytes
from .ir.locations import LocTable, location_name, user_frame
from .ir.walk import constant_array, constant_facts, main_function, op_name, resource_blobs
from .proc.client import shared_client
from .stages.mlir_stage import clone_module, full_text, mlir_stage

HOIST_TARGETS = ("args", "globals")
HOISTABLE_OPS = ("stablehlo.constant", "arith.constant", "torch.vtensor.literal", "onnx.Constant")


@dataclass
class HoistedTensor:
    name: str  # model weight name where known (content match), else const_<n>
    role: str  # "parameter" (a model weight) or "constant"
    shape: tuple
    dtype: str  # MLIR element type, e.g. "f32"
    nbytes: int
    op: str  # the op it was, e.g. "stablehlo.constant"
    location: Optional[str]  # source line of the op, when known
    target: str  # "%arg7" (position among @main's arguments) or "@weight_name"


@dataclass
class Hoisted:
    stage: Stage  # the rewritten stage (same name as the input stage)
    module: object  # its MLIR module
    to: str
    min_numel: int
    tensors: list  # HoistedTensor, in argument order
    weights: dict = field(default_factory=dict, repr=False)  # name -> numpy array
    original_module: object = field(default=None, repr=False)  # the module before hoisting (left as it was)

    def __repr__(self) -> str:
        """What moved out and where to: a table, not the arrays."""
        rows = [("name", "role", "shape", "dtype", "bytes", "line", "now")]
        rows += [(t.name, t.role, "x".join(map(str, t.shape)) or "scalar", t.dtype, human_bytes(t.nbytes),
                  t.location or "-", t.target) for t in self.tensors]
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        table = "\n".join("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)
        where = "@main's arguments" if self.to == "args" else "ml_program globals"
        return (f"Hoisted {len(self.tensors)} constant(s) of more than {self.min_numel} elements "
                f"({human_bytes(sum(t.nbytes for t in self.tensors))}) out of {self.stage.name} into {where}:\n"
                + table)

    @property
    def original_text(self) -> str:
        """The full IR before hoisting (for equivalence runs), printed when asked for."""
        return full_text(self.original_module) if self.original_module is not None else ""

    @property
    def arguments(self) -> list:
        """ArgInfo for the new arguments (to="args"), in order."""
        if self.to != "args":
            return []
        return [ArgInfo(t.name, t.role, t.shape, str(self.weights[t.name].dtype)) for t in self.tensors]

    def save_weights(self, path: str) -> str:
        from safetensors.numpy import save_file

        save_file({k: np.ascontiguousarray(v) for k, v in self.weights.items()}, path)
        return path

    @staticmethod
    def load_weights(path: str) -> dict:
        from safetensors.numpy import load_file

        return load_file(path)

    def run(self, inputs: list, device: str = "cpu", weights: Optional[dict] = None) -> list:
        """Run the hoisted module: `inputs` for the original arguments, then the weights (these or the given
        ones, by name: swapped without recompiling anything upstream). -> numpy outputs"""
        from .io.arrays import to_numpy  # lazy: imports torch (~2.5 s)
        from .run.whole import pjrt_text, run_text_on_device  # lazy: imports torch (~2.5 s)

        if self.to != "args":
            raise BadInput("the CPU runner (XLA) cannot execute ml_program globals: hoist with to='args' to run")
        weights = weights or self.weights
        feeds = [to_numpy(x) if hasattr(x, "detach") else np.asarray(x) for x in inputs]
        feeds += [np.asarray(weights[t.name]) for t in self.tensors]
        reply = run_text_on_device(shared_client(device), pjrt_text(self.stage.full_text()), feeds, 600)
        if not reply.get("ok"):
            raise RuntimeError(f"hoisted module did not run: {reply.get('error')}")
        return reply["arrays"]


def _unique(name: str, taken) -> str:
    while name in taken:
        name += "_"
    return name


def hoist_constants(stage_or_module, min_numel: int = 1024, to: str = "args", mutable: bool = False,
                    weight_names: Optional[dict] = None) -> Hoisted:
    """Move every tensor constant with more than `min_numel` elements out of @main (see module doc).
    `weight_names`: {sha1 of the tensor bytes: (name, role)} to name constants after the model's weights."""
    if to not in HOIST_TARGETS:
        raise BadInput(f"unknown hoist target {to!r}: choose one of {', '.join(HOIST_TARGETS)}")
    if min_numel < 0:
        raise BadInput(f"min_numel must be >= 0, got {min_numel}")
    if isinstance(stage_or_module, Stage):
        if not stage_or_module.ok or stage_or_module.module is None:
            raise BadInput(f"stage {stage_or_module.name} has no module to hoist from (only torchfx and stablehlo)")
        name, module = stage_or_module.name, stage_or_module.module
    else:
        name, module = StageName.STABLEHLO, stage_or_module
    new_module = clone_module(module)
    tensors, weights = _hoist_in_place(new_module, min_numel, to, mutable, weight_names or {})
    new_stage = mlir_stage(name, new_module, 0.0, meta={"hoisted": {"to": to, "min_numel": min_numel,
                                                                    "tensors": len(tensors),
                                                                    "bytes": sum(t.nbytes for t in tensors)}})
    if new_stage.meta["verifier"]:
        raise InternalError(f"hoisting produced IR that does not verify: {new_stage.meta['verifier'][:300]}")
    return Hoisted(stage=new_stage, module=new_module, to=to, min_numel=min_numel, tensors=tensors,
                   weights=weights, original_module=module)


def _hoist_in_place(module, min_numel: int, to: str, mutable: bool, weight_names: dict):
    """Edit `module`: every large non-splat constant of @main leaves it. -> (HoistedTensor list, name -> array)."""
    from torch_mlir import ir

    main = main_function(module)
    if main is None:
        raise BadInput("the module has no @main function to hoist from")
    if to == "globals" and "!torch." in str(main.attributes["function_type"]):
        raise BadInput("to='globals' needs builtin tensors: hoist the stablehlo stage (torch-dialect values are "
                       "!torch.vtensor), or use to='args'")
    block = main.regions[0].blocks[0]
    tensors: list = []
    weights: dict = {}
    blobs = None
    with module.context:
        for child in list(block.operations):
            operation = child.operation
            name = op_name(operation)
            if name not in HOISTABLE_OPS:
                continue
            facts = constant_facts(operation, name)
            if facts is None or facts.splat or int(np.prod(facts.shape or [1])) <= min_numel:
                continue
            if facts.resource is not None and blobs is None:
                blobs = resource_blobs(module)
            array = constant_array(operation, name, blobs)
            if array is None:
                continue
            wname, role = weight_names.get(digest(np.ascontiguousarray(array).tobytes()), (None, "constant"))
            cname = _unique(wname or location_name(operation.location) or f"const_{len(tensors)}", weights)
            weights[cname] = array
            line = _source_line(operation.location)
            result = operation.results[0]
            if to == "args":
                target = f"%arg{len(block.arguments)}"
                result.replace_all_uses_with(block.add_argument(result.type, ir.Location.unknown()))
            else:
                target = "@" + cname
                _replace_by_global(module, operation, cname, mutable, CONSTANT_VALUE_ATTRS[name])
            operation.erase()
            tensors.append(HoistedTensor(cname, role, tuple(facts.shape), facts.dtype, array.nbytes, name,
                                         line, target))
        if to == "args" and tensors:
            _update_signature(main, block)
    return tensors, weights


def _source_line(location) -> Optional[str]:
    """`file.py:14` of the user's line an op's location names, else None."""
    text = str(location)
    frames = LocTable("").frames(text[4:-1]) if text.startswith("loc(") and text.endswith(")") else ()
    loc = user_frame(frames)
    return loc.short if loc else None


def _update_signature(func, block) -> None:
    """@main's type (and its per-argument attributes) after block arguments were added."""
    from torch_mlir import ir

    old = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    inputs = [a.type for a in block.arguments]
    func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, list(old.results)))
    if "arg_attrs" in func.attributes:
        existing = list(ir.ArrayAttr(func.attributes["arg_attrs"]))
        existing += [ir.DictAttr.get({})] * (len(inputs) - len(existing))
        func.attributes["arg_attrs"] = ir.ArrayAttr.get(existing)


def _replace_by_global(module, operation, name: str, mutable: bool, value_attr: str) -> None:
    """An `ml_program.global` holding the constant's attribute, and a load of it where the constant was."""
    from torch_mlir import ir

    result = operation.results[0]
    attributes = {"sym_name": ir.StringAttr.get(name), "sym_visibility": ir.StringAttr.get("private"),
                  "type": ir.TypeAttr.get(result.type), "value": operation.attributes[value_attr]}
    if mutable:
        attributes["is_mutable"] = ir.UnitAttr.get()
    main = main_function(module)
    with ir.InsertionPoint(main):  # before @main, after the globals made so far: in hoisting order
        ir.Operation.create("ml_program.global", attributes=attributes, loc=operation.location)
    with ir.InsertionPoint(operation):
        load = ir.Operation.create("ml_program.global_load" if mutable else "ml_program.global_load_const",
                                   results=[result.type],
                                   attributes={"global": ir.FlatSymbolRefAttr.get(name)}, loc=operation.location)
    result.replace_all_uses_with(load.results[0])
