"""Stage `onnx`: an ONNX model (exported from an nn.Module at run time, read from a file, or given as a proto).

params="args" turns every initializer into a graph input (recorded in order); "inline" leaves them in the graph,
which is how ONNX models usually arrive.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

import numpy as np
import torch

from ..core import ArgInfo, BadInput, CompilerFailure, Op, Stage, check_input_size
from ..ir.locations import frames_from_stack_trace, user_frame

STACK_TRACE_KEY = "pkg.torch.onnx.stack_trace"
WEIGHT_TYPES = {1, 10, 11, 16}  # TensorProto FLOAT, FLOAT16, DOUBLE, BFLOAT16


@dataclass
class OnnxCapture:
    model: object  # onnx.ModelProto handed to torch-mlir
    arguments: list  # list[ArgInfo], graph inputs in order
    values: list  # tensors for those inputs
    node_frames: dict = field(default_factory=dict)  # node name -> source frames, innermost first
    weights: dict = field(default_factory=dict)  # floating-point initializers: name -> ("parameter", tensor)


IMPORT_OPSET = 17  # older default-domain opsets are upgraded to this before the import


def prepare_onnx(proto):
    """An ONNX file as users have them -> what torch-mlir's importer handles, and what was done (a list of lines).
    Old opsets are upgraded (onnx.version_converter); weights that IR-version-3 files list among the graph inputs
    are taken out of the inputs (they stay initializers); shape inference with data propagation types every value
    the importer would otherwise leave untyped. The caller's proto is not changed."""
    import onnx

    prepared = onnx.ModelProto()
    prepared.CopyFrom(proto)
    notes = []
    opset = next((o.version for o in prepared.opset_import if o.domain in ("", "ai.onnx")), None)
    if opset is not None and opset < IMPORT_OPSET:
        before = len(prepared.graph.node)
        try:
            prepared = onnx.version_converter.convert_version(prepared, IMPORT_OPSET)
            notes.append(f"opset {opset} -> {IMPORT_OPSET} ({before} -> {len(prepared.graph.node)} nodes)")
        except Exception as exc:  # the converter cannot upgrade every model: import it as it is, and say so
            notes.append(f"opset {opset} kept: the version converter failed ({type(exc).__name__}: "
                         f"{str(exc).strip().splitlines()[0][:120] if str(exc).strip() else ''})")
    inits = {i.name for i in prepared.graph.initializer}
    listed = [i for i in prepared.graph.input if i.name in inits]
    if listed:
        kept = [i for i in prepared.graph.input if i.name not in inits]
        del prepared.graph.input[:]
        prepared.graph.input.extend(kept)
        notes.append(f"{len(listed)} initializer(s) listed as graph inputs taken out of the inputs (IR version "
                     f"{proto.ir_version})")
    untyped = _untyped_values(prepared)
    try:
        prepared = onnx.shape_inference.infer_shapes(prepared, strict_mode=False, data_prop=True)
    except Exception as exc:
        notes.append(f"shape inference failed ({type(exc).__name__}); values stay as the file types them")
    else:
        if untyped:
            notes.append(f"shape inference typed {len(untyped) - len(_untyped_values(prepared))} of "
                         f"{len(untyped)} untyped value(s)")
    return prepared, notes


def _untyped_values(proto) -> set:
    """Names of node outputs the model gives no type (no value_info, not a graph output)."""
    typed = {v.name for v in list(proto.graph.value_info) + list(proto.graph.output) + list(proto.graph.input)}
    return {o for n in proto.graph.node for o in n.output if o and o not in typed}


def load_onnx(model, inputs: tuple):
    """nn.Module / path / ModelProto -> (ModelProto, example inputs)."""
    import onnx

    if isinstance(model, torch.nn.Module):
        from .fx import check_inputs

        check_inputs(model, inputs)
        try:
            with torch.no_grad():
                program = torch.onnx.export(model, tuple(inputs), dynamo=True, verbose=False)
        except Exception as exc:
            raise CompilerFailure(f"torch.onnx.export failed: {str(exc).strip().splitlines()[0][:300]}") from None
        return program.model_proto, tuple(inputs)
    if isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        if not os.path.isfile(path):
            raise BadInput(f"ONNX file not found: {path}")
        try:
            proto = onnx.load(path)
            onnx.checker.check_model(proto)
        except Exception as exc:
            raise BadInput(f"{path} is not a readable ONNX model ({type(exc).__name__}: "
                           f"{str(exc).strip().splitlines()[0][:200] if str(exc).strip() else 'malformed'})") from None
        model = proto
    if not isinstance(model, onnx.ModelProto):
        raise BadInput(f"the onnx frontend takes an nn.Module, a .onnx path or an onnx.ModelProto, "
                       f"got {type(model).__name__}")
    return model, tuple(inputs) or random_inputs(model)


def _graph_inputs(model):
    init_names = {i.name for i in model.graph.initializer}
    return [i for i in model.graph.input if i.name not in init_names]


def random_inputs(model) -> tuple:
    """Seeded example inputs for an ONNX file given without any."""
    import onnx

    gen = torch.Generator().manual_seed(0)
    out = []
    for inp in _graph_inputs(model):
        if inp.type.WhichOneof("value") != "tensor_type":
            raise BadInput(f"ONNX input {inp.name!r} is a {inp.type.WhichOneof('value') or 'untyped value'}, not a "
                           f"tensor: ttbench brings up models whose inputs are tensors")
        tt = inp.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim]
        if any(d is None for d in dims):
            raise BadInput(f"ONNX input {inp.name!r} has a dynamic shape {dims}: pass example inputs with fixed shapes")
        try:
            np_dtype = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(tt.elem_type))
            dtype = torch.from_numpy(np.zeros((), np_dtype)).dtype
        except (KeyError, TypeError, ValueError):
            name = onnx.TensorProto.DataType.Name(tt.elem_type) if tt.elem_type in onnx.TensorProto.DataType.values() \
                else str(tt.elem_type)
            raise BadInput(f"ONNX input {inp.name!r} has element type {name}, which has no PyTorch tensor: give "
                           f"inputs of a numeric type") from None
        check_input_size(f"ONNX input {inp.name!r}", dims, np_dtype.itemsize)
        if dtype.is_floating_point:
            out.append(torch.randn(dims, generator=gen).to(dtype))
        else:
            out.append(torch.randint(0, 2, dims, generator=gen).to(dtype))
    return tuple(out)


def _tensor_of(init) -> torch.Tensor:
    from onnx import numpy_helper

    return torch.from_numpy(np.array(numpy_helper.to_array(init)))


def capture_onnx(model, inputs: tuple, params: str):
    import onnx

    t0 = time.perf_counter()
    original, inputs = load_onnx(model, inputs)
    proto, prepared = prepare_onnx(original) if not isinstance(model, torch.nn.Module) else (original, [])
    graph_inputs = _graph_inputs(proto)
    if len(inputs) != len(graph_inputs):
        raise BadInput(f"the ONNX model takes {len(graph_inputs)} inputs "
                       f"({', '.join(i.name for i in graph_inputs)}), got {len(inputs)}")
    arguments = [ArgInfo(i.name, "input", tuple(x.shape), str(x.dtype).replace("torch.", ""))
                 for i, x in zip(graph_inputs, inputs)]
    values = list(inputs)
    weights = {i.name: ("parameter", _tensor_of(i)) for i in proto.graph.initializer if i.data_type in WEIGHT_TYPES}
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
            arguments.append(ArgInfo(init.name, "parameter", tuple(value.shape), str(value.dtype).replace("torch.", "")))
            values.append(value)
    node_frames = {}
    ops = []
    for node in proto.graph.node:
        meta = {p.key: p.value for p in node.metadata_props}
        chain = frames_from_stack_trace(meta.get(STACK_TRACE_KEY))
        node_frames[node.name] = chain
        ops.append(Op(index=len(ops), name=f"onnx.{node.op_type}", location=user_frame(chain), chain=chain,
                      text=onnx.helper.printable_node(node), attrs={"node": node.name}))
    stage = Stage(name="onnx", ok=True, module=proto, ops=ops, seconds=time.perf_counter() - t0)
    stage.text = onnx_text(proto, ops)
    stage.meta = {"opset": [f"{o.domain or 'ai.onnx'}:{o.version}" for o in proto.opset_import],
                  "initializers": len(proto.graph.initializer), "producer": proto.producer_name,
                  "constants": embedded_constants(to_import, weights)}
    if prepared:  # what the file needed before the import; the original is what the user gave (b.model)
        stage.meta["prepared"] = prepared
        stage.text = "".join(f"# prepared: {line}\n" for line in prepared) + stage.text
    stage._full_text = lambda: stage.text  # the model itself is the full artifact; exported as model.onnx
    return stage, OnnxCapture(model=to_import, arguments=arguments, values=values, node_frames=node_frames,
                              weights=weights), inputs


def embedded_constants(model, weights: dict) -> list:
    """Tensors inside the graph handed on: initializers and `Constant` nodes (constant-budget records)."""
    from onnx import numpy_helper

    from .fx import constant_record

    out = []
    for init in model.graph.initializer:
        if init.name in weights:
            out.append(constant_record(init.name, "parameter", weights[init.name][1]))
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


def relocate_onnx_ops(module, node_frames: dict) -> None:
    """torch-mlir's ONNX importer names each op's location after its node; give those names the source frames
    the exporter recorded (`loc("node"(callsite(...)))`), so the torch dialect and everything after it point at
    the user's code. Edits the live module's op locations."""
    from torch_mlir import ir

    from ..ir.locations import location_name
    from ..ir.walk import stage_operations

    for operation in stage_operations(module):
        name = location_name(operation.location)
        chain = node_frames.get(name) if name is not None else None
        if chain:
            files = [ir.Location.file(f.file, f.line, 0) for f in chain]
            where = files[0] if len(files) == 1 else ir.Location.callsite(files[0], files[1:])
            operation.location = ir.Location.name(name, childLoc=where)
