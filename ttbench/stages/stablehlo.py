"""Stage `stablehlo`: the torch backend pipeline, then torch-mlir's StableHLO lowering."""
from __future__ import annotations

import time

from .mlir_stage import mlir_stage, run_pipelines

FX_TO_BACKEND = ("builtin.module(func.func(torch-match-quantized-custom-ops), "
                 "torchdynamo-export-to-torch-backend-pipeline{ extra-library=})")
# torch-mlir's own ONNX pipeline (the one its tools use): a hand-assembled subset of it crashed torch-mlir on uint16
# tests that the whole pipeline lowers (found by the conformance table's bare column).
ONNX_TO_BACKEND = "builtin.module(torch-onnx-to-torch-backend-pipeline)"
TO_STABLEHLO = "builtin.module(torch-backend-to-stablehlo-backend-pipeline{allow-non-finites=true})"


def lower(torch_module, onnx: bool = False):
    """torch-dialect module (left untouched) -> a new StableHLO module."""
    t0 = time.perf_counter()
    module = lowered_module(torch_module, onnx)
    return mlir_stage("stablehlo", module, time.perf_counter() - t0), module


def lowered_module(torch_module, onnx: bool = False, contained: bool = False):
    """lower's module alone (no Stage: the op-by-op worker needs only the IR); `contained`: see run_pipelines."""
    return run_pipelines(torch_module, [
        (ONNX_TO_BACKEND if onnx else FX_TO_BACKEND, "Lowering TorchFX IR -> Torch Backend IR"),
        (TO_STABLEHLO, "Lowering Torch Backend IR -> StableHLO")], contained=contained)
