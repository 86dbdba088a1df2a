"""Hoisting inlined constants out of a module: into function arguments, or into `ml_program.global`s.

Works on the printed IR of the `torchfx` and `stablehlo` stages: every tensor constant with more than
`min_numel` elements leaves @main. to="args": it becomes a new argument after the existing ones (named after the
model weight it holds where that is known, role "parameter" for weights, "constant" otherwise), so tt-mlir can
treat it as a weight. to="globals" (stablehlo only): it becomes an `ml_program.global` read with
`global_load_const` (or `global_load` when mutable=True). The tensors are kept in `Hoisted.weights` and can be
saved to and loaded from a safetensors file.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from .core import ArgInfo, BadInput, Stage
from .mlir_text import loc_body_at_end, parse_op_name, resource_blobs, split_resources

HOIST_TARGETS = ("args", "globals")
HOISTABLE_OPS = ("stablehlo.constant", "arith.constant", "torch.vtensor.literal", "onnx.Constant")
_NP_DTYPES = {"f64": "float64", "f32": "float32", "f16": "float16", "i1": "bool", "i8": "int8", "si8": "int8",
              "ui8": "uint8", "i16": "int16", "si16": "int16", "ui16": "uint16", "i32": "int32", "si32": "int32",
              "ui32": "uint32", "i64": "int64", "si64": "int64", "ui64": "uint64"}
_DEF_RE = re.compile(r"^(\s*)(%[\w$.-]+) = ")
_VALUE_RE = re.compile(r'(dense(?:_resource)?<(?:"0x[0-9A-Fa-f]*"|[^<>]*?)>)\s*:\s*(tensor<([^<>]*)>)')


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
    weights: dict = field(default_factory=dict)  # name -> numpy array
    original_text: str = ""  # the full IR before hoisting (for equivalence runs)

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
        from .run.client import shared_client
        from .run.golden import to_numpy
        from .run.whole import pjrt_text, run_text_on_device

        if self.to != "args":
            raise BadInput("the CPU runner (XLA) cannot execute ml_program globals: hoist with to='args' to run")
        weights = weights or self.weights
        feeds = [to_numpy(x) if hasattr(x, "detach") else np.asarray(x) for x in inputs]
        feeds += [np.asarray(weights[t.name]) for t in self.tensors]
        reply = run_text_on_device(shared_client(device), pjrt_text(self.stage.full_text()), feeds, 600)
        if not reply.get("ok"):
            raise RuntimeError(f"hoisted module did not run: {reply.get('error')}")
        return reply["arrays"]


def _matching_paren(s: str, i: int) -> int:
    """Index of the ')' closing the '(' at s[i], skipping quoted strings."""
    depth, j = 0, i
    while j < len(s):
        c = s[j]
        if c == '"':
            j += 1
            while s[j] != '"':
                j += 2 if s[j] == "\\" else 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    raise ValueError("unbalanced parentheses")


def _decode(value: str, shape: tuple, dtype: str, blobs: dict) -> np.ndarray:
    """The numpy array an MLIR elements attribute holds."""
    np_dtype = np.dtype(_NP_DTYPES[dtype]) if dtype != "bf16" else np.dtype(__import__("ml_dtypes").bfloat16)
    numel = int(np.prod(shape)) if shape else 1
    if value.startswith("dense_resource<"):
        key = value[len("dense_resource<"):-1].strip('"')
        if key not in blobs:
            raise ValueError(f"resource {key} has no data in this module")
        data = bytes.fromhex(blobs[key])
    else:
        body = value[len("dense<"):-1]
        if body.startswith('"0x'):
            data = bytes.fromhex(body[3:-1])
        else:
            parsed = ast.literal_eval(body.replace("true", "True").replace("false", "False"))
            return np.broadcast_to(np.array(parsed, dtype=np_dtype), shape).copy() if not isinstance(parsed, list) \
                else np.array(parsed, dtype=np_dtype).reshape(shape)
    if dtype == "i1":
        arr = np.frombuffer(data, dtype=np.uint8).astype(bool)
    else:
        arr = np.frombuffer(data, dtype=np_dtype)
    if arr.size == 1 and numel != 1:  # a splat written in hex
        return np.full(shape, arr[0], dtype=arr.dtype)
    return arr.reshape(shape).copy()


def _result_type(line: str) -> str:
    body = line.rstrip()
    loc = loc_body_at_end(body)
    if loc is not None:
        body = body[:body.rfind(" loc(")]
    if "->" in body.rsplit(" : ", 1)[-1]:
        return body.rsplit("->", 1)[-1].strip()
    return body.rsplit(" : ", 1)[-1].strip()


def _name_location(loc_body: Optional[str], aliases: dict) -> Optional[str]:
    """The name of a bare name location (`loc("fc1.weight")`, how the ONNX importer marks initializers)."""
    body = aliases.get(loc_body, loc_body) if loc_body else None
    m = re.fullmatch(r'"([^"\\]+)"', body or "")
    return m.group(1) if m else None


def _symbol(name: str) -> str:
    return f"@{name}" if re.fullmatch(r"[A-Za-z_][\w$.]*", name) else '@"' + name.replace('"', '\\"') + '"'


def hoist_constants(stage_or_module, min_numel: int = 1024, to: str = "args", mutable: bool = False,
                    weight_names: Optional[dict] = None) -> Hoisted:
    """Move every tensor constant with more than `min_numel` elements out of @main (see module doc).
    `weight_names`: {sha1 of the tensor bytes: (name, role)} to name constants after the model's weights."""
    from .analysis.constants import digest
    from .stages.mlir_stage import full_text, mlir_stage

    if to not in HOIST_TARGETS:
        raise BadInput(f"unknown hoist target {to!r}: choose one of {', '.join(HOIST_TARGETS)}")
    if min_numel < 0:
        raise BadInput(f"min_numel must be >= 0, got {min_numel}")
    if isinstance(stage_or_module, Stage):
        if not stage_or_module.ok or stage_or_module.module is None:
            raise BadInput(f"stage {stage_or_module.name} has no module to hoist from (only torchfx and stablehlo)")
        name, module = stage_or_module.name, stage_or_module.module
    else:
        name, module = "stablehlo", stage_or_module
    text = full_text(module)
    if to == "globals" and "torch.vtensor" in text:
        raise BadInput("to='globals' needs builtin tensors: hoist the stablehlo stage (torch-dialect values are "
                       "!torch.vtensor), or use to='args'")
    ir, trailer = split_resources(text)
    blobs = resource_blobs(trailer)
    lines = ir.split("\n")
    aliases = dict(re.findall(r"^(#loc\d*) = loc\((.*)\)\s*$", ir, re.M))
    main = next((i for i, l in enumerate(lines) if re.match(r"\s*func\.func (?:public |private )?@main\(", l)), None)
    if main is None:
        raise BadInput("the module has no @main function to hoist from")
    existing_args = len(re.findall(r"%arg\d+:", lines[main][:_matching_paren(lines[main], lines[main].index("("))]))
    tensors, weights, renames, new_args, globals_ = [], {}, {}, [], []
    weight_names = weight_names or {}
    end = next(i for i in range(main + 1, len(lines)) if re.match(r"^\s*\}", lines[i]) and
               len(lines[i]) - len(lines[i].lstrip()) <= len(lines[main]) - len(lines[main].lstrip()))
    for i in range(main + 1, end):
        line = lines[i]
        op = parse_op_name(line)
        d = _DEF_RE.match(line)
        if op not in HOISTABLE_OPS or not d:
            continue
        v = _VALUE_RE.search(line)
        if not v:
            continue
        dims = v.group(3).split("x")
        if any(not p.isdigit() for p in dims[:-1]) or dims[-1] not in _NP_DTYPES and dims[-1] != "bf16":
            continue
        shape, dtype = tuple(int(p) for p in dims[:-1]), dims[-1]
        if int(np.prod(shape)) <= min_numel:
            continue
        array = _decode(v.group(1), shape, dtype, blobs)
        loc_body = loc_body_at_end(line)
        wname, role = weight_names.get(digest(array.tobytes()), (None, "constant"))
        cname = wname or _name_location(loc_body, aliases) or f"const_{len(tensors)}"
        while cname in weights:
            cname += "_"
        weights[cname] = array
        ssa, indent = d.group(2), d.group(1)
        result_type = _result_type(line)
        if to == "args":
            # Not %argN: nested regions (reduce bodies) name their block arguments that way too, and a nested
            # region may not redefine a name. The printer renumbers the new arguments on output.
            arg = f"%ttbench_hoisted{len(new_args)}"
            new_args.append(f"{arg}: {result_type} loc(unknown)")
            renames[ssa] = arg
            lines[i] = None
            target = f"%arg{existing_args + len(new_args) - 1}"
        else:
            sym = _symbol(cname)
            globals_.append(f"  ml_program.global private {'mutable ' if mutable else ''}{sym}({v.group(1)} : {v.group(2)}) : "
                            f"{v.group(2)}")
            load = "ml_program.global_load" if mutable else "ml_program.global_load_const"
            lines[i] = f"{indent}{ssa} = {load} {sym} : {v.group(2)}" + (f" loc({loc_body})" if loc_body else "")
            target = sym
        tensors.append(HoistedTensor(cname, role, shape, dtype, array.nbytes, op, None, target))
    if renames:
        pattern = re.compile(r"(?<![\w$.-])(" + "|".join(re.escape(k) for k in renames) + r")(?![\w$.-])")
        for i in range(main + 1, end):
            if lines[i] is not None:
                lines[i] = pattern.sub(lambda m: renames[m.group(1)], lines[i])
        close = _matching_paren(lines[main], lines[main].index("("))
        sep = ", " if existing_args else ""
        lines[main] = lines[main][:close] + sep + ", ".join(new_args) + lines[main][close:]
    if globals_:
        module_line = next(i for i, l in enumerate(lines) if l is not None and l.startswith("module"))
        lines[module_line + 1:module_line + 1] = globals_
    new_text = "\n".join(l for l in lines if l is not None) + ("\n" + trailer if trailer else "")
    from torch_mlir import ir as mlir_ir

    with module.context:
        new_module = mlir_ir.Module.parse(new_text)
    new_stage = mlir_stage(name, new_module, 0.0, meta={"hoisted": {"to": to, "min_numel": min_numel,
                                                                    "tensors": len(tensors),
                                                                    "bytes": sum(t.nbytes for t in tensors)}})
    return Hoisted(stage=new_stage, module=new_module, to=to, min_numel=min_numel, tensors=tensors,
                   weights=weights, original_text=text)
