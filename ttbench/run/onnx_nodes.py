"""One ONNX node as a model of its own: the unit of the ONNX op-by-op flow.

The values every node reads and writes come from one onnxruntime run of the whole model with every node output
made a graph output (optimisations off, so no value is fused away). A node's one-node model keeps the opset, IR
version and local functions of the whole model; each input is either a graph input (fed the recorded value) or
an initializer holding it:
  - initializers and Constant outputs stay initializers with params="inline" (as the file has them) and become
    inputs with params="args", except integer ones: axes, shapes and indices are structure the lowering needs;
  - small integer values computed at run time (shape arithmetic, <= SMALL_INT_ELEMENTS) are embedded too, for the
    same reason (the whole-model import sees them folded).
Nodes that compute the same thing (op, domain, attributes, input shapes/dtypes, embedded values) share a key.
"""
from __future__ import annotations

import hashlib

import numpy as np

SMALL_INT_ELEMENTS = 64
SKIPPED_OPS = ("Constant",)  # values, not computation: their outputs are embedded where they are read


def recorded_values(proto, feeds: dict) -> dict:
    """name -> array of every graph input, initializer and node output, from one onnxruntime run, or onnx's
    reference evaluator where onnxruntime refuses the model (call it in a forked child: a runtime crash must not
    take the caller)."""
    import onnx
    import onnxruntime as ort
    from onnx import numpy_helper

    model = onnx.ModelProto()
    model.CopyFrom(proto)
    graph_outputs = {o.name for o in model.graph.output}
    inits = {i.name for i in model.graph.initializer}
    for node in model.graph.node:
        for name in node.output:
            if name and name not in graph_outputs and name not in inits:
                model.graph.output.append(onnx.ValueInfoProto(name=name))
                graph_outputs.add(name)
    values = {i.name: np.asarray(numpy_helper.to_array(i)) for i in model.graph.initializer}
    values.update(feeds)
    try:
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        options.intra_op_num_threads = 1
        options.log_severity_level = 3
        session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
        names = [o.name for o in session.get_outputs()]
        values.update(zip(names, (_value(v) for v in session.run(names, feeds))))
    except Exception:  # noqa: BLE001 - onnxruntime lacks an op or type: the reference evaluator, as for the golden
        from onnx.reference import ReferenceEvaluator

        results: dict = ReferenceEvaluator(proto).run(None, feeds, intermediate=True)  # type: ignore[assignment]
        values.update((k, _value(v)) for k, v in results.items() if k not in values)
    return values


def _value(v):
    """A tensor as an array; a sequence (list) or map (dict) stays what it is: never stacked into a tensor."""
    return v if isinstance(v, (list, dict)) else np.asarray(v)


def _tensor(values: dict, name: str) -> np.ndarray:
    value = values[name]
    if not isinstance(value, np.ndarray):
        raise TypeError(f"'{name}' is an ONNX {'sequence' if isinstance(value, list) else 'map'}, not a tensor")
    return value


def constant_names(proto) -> set:
    """Values fixed by the file itself: initializers and the outputs of Constant nodes."""
    names = {i.name for i in proto.graph.initializer}
    names.update(o for n in proto.graph.node if n.op_type in SKIPPED_OPS for o in n.output)
    return names


def _embedded(name: str, value: np.ndarray, constants: set, params: str) -> bool:
    integer = value.dtype.kind in "iub"
    if name in constants:
        return params == "inline" or integer
    return integer and value.size <= SMALL_INT_ELEMENTS


def one_node_model(proto, node, values: dict, constants: set, params: str):
    """-> (ModelProto of `node` alone, input arrays in its graph-input order, dedup key)."""
    import onnx
    from onnx import helper, numpy_helper

    graph_inputs, feeds, inits = [], [], []
    signature: list[tuple] = []
    seen = set()
    for name in node.input:
        if not name or name in seen:
            continue
        seen.add(name)
        value = _tensor(values, name)
        elem = helper.np_dtype_to_tensor_dtype(value.dtype)
        if _embedded(name, value, constants, params):
            inits.append(numpy_helper.from_array(value, name))
            signature.append(("const", value.shape, str(value.dtype), hashlib.sha1(value.tobytes()).hexdigest()))
        else:
            graph_inputs.append(helper.make_tensor_value_info(name, elem, value.shape))
            feeds.append(value)
            signature.append(("input", value.shape, str(value.dtype)))
    outputs = [helper.make_tensor_value_info(o, helper.np_dtype_to_tensor_dtype(_tensor(values, o).dtype),
                                             values[o].shape) for o in node.output if o]
    single = onnx.NodeProto()
    single.CopyFrom(node)
    del single.metadata_props[:]  # the source line is the row's; it must not split identical nodes
    graph = helper.make_graph([single], f"node_{node.name or node.op_type}", graph_inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=list(proto.opset_import), ir_version=proto.ir_version)
    model.functions.extend(f for f in proto.functions if f.domain == node.domain)
    attributes = sorted((a.name, a.SerializeToString(deterministic=True)) for a in node.attribute)
    key = (node.domain, node.op_type, tuple(attributes), tuple(signature), len(outputs))
    return model, feeds, key


def node_outputs(node, values: dict) -> list:
    return [values[o] for o in node.output if o]
