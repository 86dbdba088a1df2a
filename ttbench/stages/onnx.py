"""Stage `onnx`: an ONNX model (exported from an nn.Module at run time, read from a file, or given as a proto).

params="args" turns every initializer into a graph input (recorded in order); "inline" leaves them in the graph,
which is how ONNX models usually arrive.
"""
from __future__ import annotations

import ast
import time
from dataclasses import dataclass, field
from typing import Optional

import numpy as np
import torch

from ..core import ArgInfo, Op, Stage, StageName
from ..ir.locations import frames_from_stack_trace, location_name, module_location_name, user_frame
from ..ir.walk import main_function, stage_operations
from .fx import constant_record
from .onnx_prepare import graph_inputs, load_onnx, prepare_onnx

STACK_TRACE_KEY = "pkg.torch.onnx.stack_trace"
NAME_SCOPES_KEY = "pkg.torch.onnx.name_scopes"  # "['', 'encoder', 'encoder.layer.0', 'linear']": modules, then the node

WEIGHT_TYPES = {1, 10, 11, 16}  # TensorProto FLOAT, FLOAT16, DOUBLE, BFLOAT16


def _module_of_scopes(scopes: Optional[str]) -> Optional[str]:
    """The module path in the exporter's name scopes (the last scope names the node itself); None when absent or
    not a list of strings (the file is untrusted: a literal is read, never evaluated, and only a short one)."""
    if not scopes or len(scopes) > 20_000:
        return None
    try:
        names = ast.literal_eval(scopes)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        return None
    return names[-2] if len(names) >= 2 else ""


@dataclass
class OnnxCapture:
    model: object  # onnx.ModelProto handed to torch-mlir
    arguments: list  # list[ArgInfo], graph inputs in order
    values: list  # tensors for those inputs
    node_frames: dict = field(default_factory=dict)  # node name -> source frames, innermost first
    node_modules: dict = field(default_factory=dict)  # node name -> PyTorch module path, where the exporter said
    weights: dict = field(default_factory=dict)  # floating-point initializers: name -> (role, tensor)


def _tensor_of(init) -> torch.Tensor:
    from onnx import numpy_helper

    return torch.from_numpy(np.array(numpy_helper.to_array(init)))


def _torch_roles(model: torch.nn.Module) -> dict:
    """{initializer name: parameter | buffer} for a model exported here: the exporter names initializers after the
    module's own names, and any other floating-point initializer (a plain tensor attribute, a folded tensor) is a
    constant. A file on its own says nothing of roles: there every floating-point initializer is a parameter."""
    # every name of a tied weight: the exporter may name its initializer after any of them
    roles = {name: "buffer" for name, _ in model.named_buffers(remove_duplicate=False)}
    roles.update({name: "parameter" for name, _ in model.named_parameters(remove_duplicate=False)})
    return roles


def capture_onnx(model, inputs, params: str, dims: Optional[dict] = None):
    import onnx

    t0 = time.perf_counter()
    original, inputs = load_onnx(model, inputs, dims)
    proto, prepared = prepare_onnx(original, inputs) if not isinstance(model, torch.nn.Module) else (original, [])
    arguments = [ArgInfo(i.name, "input", tuple(x.shape), str(x.dtype).replace("torch.", ""))
                 for i, x in zip(graph_inputs(proto), inputs)]
    values = list(inputs)
    roles = _torch_roles(model) if isinstance(model, torch.nn.Module) else {}
    weights = {i.name: (roles.get(i.name, "parameter" if not roles else "constant"), _tensor_of(i))
               for i in proto.graph.initializer if i.data_type in WEIGHT_TYPES}
    to_import = proto
    if params == "args":
        to_import = onnx.ModelProto()
        to_import.CopyFrom(proto)
        # Only floating-point initializers are weights; integer ones (axes, shapes, indices) are structure that
        # the lowering needs as constants.
        inits = [i for i in to_import.graph.initializer if i.data_type in WEIGHT_TYPES]
        keep = [i for i in to_import.graph.initializer if i.data_type not in WEIGHT_TYPES]
        del to_import.graph.initializer[:]
        to_import.graph.initializer.extend(keep)
        for init in inits:
            to_import.graph.input.append(onnx.helper.make_tensor_value_info(init.name, init.data_type, init.dims))
            value = weights[init.name][1]
            arguments.append(ArgInfo(init.name, weights[init.name][0], tuple(value.shape),
                                     str(value.dtype).replace("torch.", "")))
            values.append(value)
    node_frames, node_modules = {}, {}
    ops = []
    for node in proto.graph.node:
        meta = {p.key: p.value for p in node.metadata_props}
        chain = frames_from_stack_trace(meta.get(STACK_TRACE_KEY))
        node_frames[node.name] = chain
        module = node_modules[node.name] = _module_of_scopes(meta.get(NAME_SCOPES_KEY))
        ops.append(Op(index=len(ops), name=f"onnx.{node.op_type}", location=user_frame(chain), chain=chain,
                      text=onnx.helper.printable_node(node), attrs={"node": node.name}, module=module))
    stage = Stage(name=StageName.ONNX, ok=True, module=proto, ops=ops, seconds=time.perf_counter() - t0)
    stage.text = onnx_text(proto, ops)
    stage.meta = {"opset": [f"{o.domain or 'ai.onnx'}:{o.version}" for o in proto.opset_import],
                  "initializers": len(proto.graph.initializer), "producer": proto.producer_name,
                  "constants": embedded_constants(to_import, weights)}
    if prepared:  # what the file needed before the import; the original is what the user gave (b.model)
        stage.meta["prepared"] = prepared
        stage.text = "".join(f"# prepared: {line}\n" for line in prepared) + stage.text
    stage._full_text = lambda: stage.text  # the model itself is the full artifact; exported as model.onnx
    return stage, OnnxCapture(model=to_import, arguments=arguments, values=values, node_frames=node_frames,
                              node_modules=node_modules,
                              weights=weights), inputs


def embedded_constants(model, weights: dict) -> list:
    """Tensors inside the graph handed on: initializers and `Constant` nodes (constant-budget records)."""
    from onnx import numpy_helper

    out = []
    for init in model.graph.initializer:
        if init.name in weights:
            out.append(constant_record(init.name, *weights[init.name]))
        else:
            out.append(constant_record(init.name, "constant", _tensor_of(init)))
    for node in model.graph.node:
        if node.op_type != "Constant":
            continue
        for attr in node.attribute:
            if attr.name == "value" and attr.HasField("t"):
                value = torch.from_numpy(np.array(numpy_helper.to_array(attr.t)))
                out.append(constant_record(node.output[0], "constant", value))
    return out


def onnx_text(proto, ops) -> str:
    import onnx

    lines = [f"# ONNX graph {proto.graph.name!r}, producer {proto.producer_name} {proto.producer_version}", "# inputs:"]
    for i in proto.graph.input:
        lines.append(f"#   {i.name}: {_type_str(i.type)}")
    lines.append(f"# initializers ({len(proto.graph.initializer)}, values elided):")
    for init in proto.graph.initializer:
        lines.append(f"#   {init.name}: {onnx.helper.tensor_dtype_to_string(init.data_type).replace('TensorProto.', '')}"
                     f"{list(init.dims)}")
    lines.append("")
    for op in ops:
        lines.append(f"{op.text}    # {op.location}" if op.location else op.text)
    return "\n".join(lines) + "\n"


def _type_str(t) -> str:
    import onnx

    tt = t.tensor_type
    dims = [d.dim_value if d.HasField("dim_value") else d.dim_param or "?" for d in tt.shape.dim]
    return f"{onnx.helper.tensor_dtype_to_string(tt.elem_type).replace('TensorProto.', '')}{dims}"


def relocate_onnx_ops(module, node_frames: dict, node_modules: dict) -> None:
    """torch-mlir's ONNX importer names each op's location after its node; give those names the source frames
    the exporter recorded (`loc("node"(callsite(...)))`), so the torch dialect and everything after it point at
    the user's code. @main's arguments (named only: `loc("x")`) take the source location of their first user, as
    torch-mlir's FX importer gives them; the Tenstorrent compiler puts an argument's location on the device
    transfers and layout changes it makes for it, which would otherwise point nowhere. Edits the live module."""
    from torch_mlir import ir

    sources = {}  # the source part of each relocated op's location
    for operation in stage_operations(module):
        name = location_name(operation.location)
        chain = node_frames.get(name) if name is not None else None
        if chain:
            files = [ir.Location.file(f.file, f.line, 0) for f in chain]
            where = files[0] if len(files) == 1 else ir.Location.callsite(files[0], files[1:])
            located = ir.Location.name(name, childLoc=where)
            path = node_modules.get(name)
            if path is not None:  # the module path outermost, as the FX import writes it
                located = ir.Location.name(module_location_name(path), childLoc=located)
            operation.location = located
            sources[operation] = where
    main = main_function(module)
    if main is None or not sources:
        return
    with module.context:
        for argument in main.regions[0].blocks[0].arguments:
            name = location_name(argument.location)
            users = (getattr(use.owner, "operation", use.owner) for use in argument.uses)  # OpView -> Operation
            where = next((sources[user] for user in users if user in sources), None)
            if name is not None and where is not None:
                argument.set_location(ir.Location.name(name, childLoc=where))
