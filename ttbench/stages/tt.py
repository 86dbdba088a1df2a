"""Stages `ttir` and `ttnn`: what the Tenstorrent compiler (tt-xla / tt-mlir, as a PJRT plugin) makes of the
StableHLO that ttbench shows. One compile yields both; it runs in a child process (see tt_plugin.py)."""
from __future__ import annotations

import os
import pathlib
import shutil
from typing import Optional

from ..core import PROGRAM_STAGES, Stage, StageName
from ..ir.text import elide_weights, legalize_for_tt, parse_ops
from ..ir.walk import main_function
from ..proc.scratch import remove_orphans, scratch_dir, temp_dir
from ..tt import plugin as tt_plugin
from .mlir_stage import clone_module, full_text

FLATBUFFER_FILE = "ttnn.flatbuffer.ttnn"  # the name in export folders too

# ArgInfo.role -> tt-mlir's ttcore.argument_type: parameters and buffers may be hoisted into const-eval.
# tt-mlir's argument types are input / parameter / constant: a cache is an input the program updates (its
# `ttir.name` says which); parameters and constants are what tt-mlir may hoist and const-evaluate.
TT_ROLES = {"input": "input", "cache": "input", "parameter": "parameter", "buffer": "parameter",
            "constant": "constant"}


def handed_over_text(stablehlo_stage: Stage, arguments: list, params: str) -> str:
    """The StableHLO the plugin gets, made on a clone of the live module: tensor `arith.constant`s (torch-mlir
    leaves a few; the plugin refuses mixed dialects) become `stablehlo.constant`s, and with params="args" each
    argument of @main is marked with its role and name the way tt-xla's torch frontend does (a
    `stablehlo.custom_call @tt.mark_argument`), so tt-mlir knows weights from inputs."""
    if stablehlo_stage.module is None:  # no live module (a stage read back from text): the text rewrite
        return legalize_for_tt(stablehlo_stage.full_text())
    module = clone_module(stablehlo_stage.module)
    with module.context:
        for top in module.body.operations:
            if top.operation.name == "func.func":
                for block in top.operation.regions[0].blocks:
                    _constants_to_stablehlo(block)
        main = main_function(module)
        if main is not None and params == "args":
            _mark_argument_roles(main, arguments)
    return full_text(module)


def _constants_to_stablehlo(block) -> None:
    from torch_mlir import ir

    for child in list(block.operations):
        op = child.operation
        if op.name == "arith.constant" and str(op.results[0].type).startswith("tensor<"):
            with ir.InsertionPoint(op), op.location:
                new = ir.Operation.create("stablehlo.constant", results=[op.results[0].type],
                                          attributes={"value": op.attributes["value"]})
            op.results[0].replace_all_uses_with(new.results[0])
            op.erase()


def _mark_argument_roles(main, arguments: list) -> None:
    from torch_mlir import ir

    block = main.regions[0].blocks[0]
    if len(block.arguments) != len(arguments):
        return  # not the signature we recorded: hand it over unmarked rather than mislabel
    first = block.operations[0] if len(block.operations) else None
    for arg, info in zip(list(block.arguments), arguments):
        attrs = ir.DictAttr.get({"ttcore.argument_type": ir.StringAttr.get(TT_ROLES[info.role]),
                                 "ttir.name": ir.StringAttr.get(info.name)})
        with ir.InsertionPoint(first), ir.Location.unknown():
            mark = ir.Operation.create("stablehlo.custom_call", results=[arg.type], operands=[arg],
                                       attributes={"call_target_name": ir.StringAttr.get("tt.mark_argument"),
                                                   "mhlo.frontend_attributes": attrs})
        arg.replace_all_uses_except(mark.results[0], mark)


def _file_stage(name: str, path: str, seconds: float, meta: dict) -> Stage:
    with open(path) as f:
        full = f.read()
    text = elide_weights(full)
    stage = Stage(name=name, ok=True, text=text, ops=parse_ops(text), seconds=seconds, meta=meta)
    stage._full_text = lambda: full
    return stage


# The Tenstorrent compiler's optimization levels: 0 (its default) places every tensor interleaved in DRAM; 1 and 2
# run its optimizer (L1 placement, sharding).
OPT_LEVELS = (0, 1, 2)
PERF_METRICS_FILE = "perf_metrics.json"


def compile_tt(stablehlo_stage: Stage, arguments: list, params: str, timeout: float,
               opt_level: Optional[int] = None) -> tuple:
    """stablehlo Stage -> (ttir Stage, ttnn Stage), compiled at `opt_level` (None: the compiler's default, level 0,
    without its perf metrics)."""
    handed_over = handed_over_text(stablehlo_stage, arguments, params)
    workdir = temp_dir("ttbench-tt-")  # marked: the next run reclaims it if we die
    remove_orphans("ttbench-tt-")
    try:
        result = tt_plugin.compile_stablehlo(handed_over, workdir, timeout=timeout, optimization_level=opt_level)
        if not result.ok and opt_level:
            result.error = _optimizer_failure(handed_over, timeout, opt_level, result.error)
        meta = {"target": result.target, "optimization_level": opt_level or 0,
                "compile_seconds": round(result.seconds, 3)}
        if result.lock_wait_seconds:  # another process's compile held the plugin: not this model's compile time
            meta["lock_wait_seconds"] = round(result.lock_wait_seconds, 3)
        stages = []
        for name in PROGRAM_STAGES:
            path = result.files.get(name)
            # One compile makes both stages: its time is ttir's, so tables and sums count it once.
            seconds = result.seconds if name == StageName.TTIR else 0.0
            if path and (result.ok or name == StageName.TTIR):
                stage = _file_stage(name, path, seconds, dict(meta))
            else:
                stage = Stage(name=name, ok=False, seconds=seconds, meta=dict(meta),
                              error=f"{name}: {result.error or 'the compiler wrote no ' + name + ' file'}")
            stages.append(stage)
        ttir, ttnn = stages
        if not ttir.ok:
            ttnn = Stage.skipped(StageName.TTNN, StageName.TTIR)
        elif not result.ok:
            # TTIR came out but a later step failed: TTIR stays, the error belongs to ttnn.
            ttnn.error = f"ttnn: {result.error}"
        ttir.artifacts["ttir.input.stablehlo.mlir"] = handed_over
        if ttnn.ok:
            fb = result.files.get("flatbuffer")
            if fb:
                keep = os.path.join(scratch_dir("ttbench-fb-", owner=ttnn), FLATBUFFER_FILE)
                shutil.move(fb, keep)
                ttnn.meta["flatbuffer_path"] = keep
                ttnn.meta["flatbuffer_bytes"] = os.path.getsize(keep)
                ttnn.artifacts[FLATBUFFER_FILE] = pathlib.Path(keep)
            metrics = result.files.get("perf_metrics")
            if metrics:
                ttnn.artifacts[PERF_METRICS_FILE] = pathlib.Path(metrics).read_text()
            const_eval = [op for op in ttnn.ops if "const_eval" in (op.attrs.get("func") or "")]
            ttnn.meta["const_eval_functions"] = len({op.attrs["func"] for op in const_eval})
            ttnn.meta["const_eval_ops"] = len(const_eval)
        if not result.ok:
            ttir.meta["compiler_log_tail"] = tt_plugin.last_meaningful_lines(result.log, 12)
        return ttir, ttnn
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _optimizer_failure(handed_over: str, timeout: float, opt_level: int, error: Optional[str]) -> Optional[str]:
    """The error of a compile at `opt_level`, saying whether level 0 compiles the same module: a failure only the
    optimizer hits is the optimizer's (its pass and op are in the error), not the model's."""
    workdir = temp_dir("ttbench-tt-")
    try:
        plain = tt_plugin.compile_stablehlo(handed_over, workdir, timeout=timeout)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if plain.ok:
        return f"compiles at level 0, fails at level {opt_level} (the compiler's optimizer): {error}"
    return f"fails at level {opt_level}, and at level 0 too: {error}"
