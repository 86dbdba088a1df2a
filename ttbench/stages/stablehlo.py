"""Stage `stablehlo`: the torch backend pipeline, then torch-mlir's StableHLO lowering."""
from __future__ import annotations

import time

from ..proc.passes import PendingPipelines
from .mlir_stage import PipelinesRunHere, mlir_stage, run_pipelines, start_pipelines
from .torchfx import new_context
from ..core import StageName

FX_TO_BACKEND = ("builtin.module(func.func(torch-match-quantized-custom-ops), "
                 "torchdynamo-export-to-torch-backend-pipeline{ extra-library=})")
# torch-mlir's own ONNX pipeline (the one its tools use): a hand-assembled subset of it crashed torch-mlir on uint16
# tests that the whole pipeline lowers (found by the conformance table's bare column).
ONNX_TO_BACKEND = "builtin.module(torch-onnx-to-torch-backend-pipeline)"
TO_STABLEHLO = "builtin.module(torch-backend-to-stablehlo-backend-pipeline{allow-non-finites=true})"


def start_lowering(torch_module, onnx: bool = False) -> "PendingPipelines | PipelinesRunHere":
    """The lowering of a torch-dialect module (left untouched), started in its worker process; `lower` takes it."""
    return start_pipelines(torch_module, _pipelines(onnx))


def lower(started: "PendingPipelines | PipelinesRunHere"):
    """A started lowering -> (the StableHLO Stage, its module). The stage's seconds run from the lowering's start
    (it overlaps the reading of the torchfx stage)."""
    module = started.result()
    return mlir_stage(StageName.STABLEHLO, module, time.monotonic() - started.started), module


def stage_from_bytecode(data: bytes, seconds: float = 0.0):
    """A StableHLO Stage read back from its module's bytecode (mlir_stage.bytecode, what clone_module round-trips
    through, so the ops, locations and text are the lowered module's): a tracker job's kept stage
    (fleet/kept_stages.py)."""
    from torch_mlir import ir

    context = new_context()
    context.load_all_available_dialects()
    with context:
        module = ir.Module.parse(data)
    return mlir_stage(StageName.STABLEHLO, module, seconds)


def lowered_module(torch_module, onnx: bool = False, contained: bool = False):
    """The lowering's module alone (no Stage: the op-by-op worker needs only the IR); `contained`: see
    run_pipelines."""
    return run_pipelines(torch_module, _pipelines(onnx), contained=contained)


def _pipelines(onnx: bool) -> list:
    return [(ONNX_TO_BACKEND if onnx else FX_TO_BACKEND, "Lowering TorchFX IR -> Torch Backend IR"),
            (TO_STABLEHLO, "Lowering Torch Backend IR -> StableHLO")]
