"""Stage `torchfx`: torch-mlir's torch dialect, straight from its importers (no lowering yet)."""
from __future__ import annotations

import time

from .mlir_stage import mlir_stage


def new_context():
    from torch_mlir import ir
    from torch_mlir.dialects import torch as torch_d

    context = ir.Context()
    torch_d.register_dialect(context)
    return context


def import_fx(capture):
    """FxCapture -> torch-dialect module. Placeholders become function arguments in `capture.arguments` order."""
    from torch_mlir.extras.fx_importer import FxImporter

    t0 = time.perf_counter()
    importer = FxImporter(context=new_context())
    importer.import_stateless_graph(capture.graph_module.graph, func_name="main")
    module = importer.module
    return mlir_stage("torchfx", module, time.perf_counter() - t0), module


def import_onnx(capture):
    """OnnxCapture -> torch-dialect module of `torch.operator "onnx.*"` ops, each located at the source line the
    ONNX exporter recorded for its node."""
    from torch_mlir import ir
    from torch_mlir.extras import onnx_importer

    from .onnx import relocate_onnx_ops

    t0 = time.perf_counter()
    context = new_context()
    model_info = onnx_importer.ModelInfo(capture.model)
    module = model_info.create_module(context=context)
    node_importer = onnx_importer.NodeImporter.define_function(model_info.main_graph, module.operation)
    node_importer.import_all()
    with context:
        relocate_onnx_ops(module, capture.node_frames)
        for op in module.body.operations:  # the importer names the function after the ONNX graph
            if op.operation.name == "func.func":
                op.operation.attributes["sym_name"] = ir.StringAttr.get("main")
    return mlir_stage("torchfx", module, time.perf_counter() - t0), module
