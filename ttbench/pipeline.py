"""`bringup()`: chain the stage functions for one model and keep every stage, failed or not."""
from __future__ import annotations

import math
import os
import time
import traceback
from collections import OrderedDict
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, Optional

import numpy as np
import torch

from .analysis.bound import time_bound
from .analysis.collect import analyze
from .analysis.compiler_metrics import compiler_metrics
from .analysis.constants import DEFAULT_MIN_BYTES, weights_by_digest
from .analysis.levels import level_changes
from .analysis.memory import memory_report
from .analysis.placement import placement_report, ttnn_program
from .core import (FRONTENDS, FRONTEND_STAGES, INTERNAL_ERROR, PARAMS_MODES, REPORT_BUGS, TORCH_MLIR_STAGES, BadInput,
                   BringupRecord, CompilerFailure, Frontend, InternalError, ParamsMode, Stage, StageMeta, StageName,
                   view_method)
from .hoist import HOIST_TARGETS, hoist_constants
from .io.atomic import check_new_folder
from .io.export import StageTable, stage_table, write_bringup
from .io.weights import load_argument_values
from .proc.passes import prestart_worker
from .progress import StageBar, in_notebook, quiet_framework_warnings
from .records.comparison import StageComparison
from .records.levels import LevelComparison, LevelRun
from .records.results import NoFailingOp, OpByOpReport
from .run.drift import DriftReport, drift
from .run.op_by_op import op_by_op
from .run.repro import divergence_facts, divergence_files, simulator_files
from .run.semantics import semantic_findings
from .run.stage_compare import compare_stages
from .run.whole import run_stage
from .stages import fx, onnx, stablehlo, torchfx
from .stages.mlir_stage import compiler_error
from .stages.tt import OPT_LEVELS, PERF_METRICS_FILE, compile_tt
from .tt import plugin as tt_plugin
from .tt.sim.executor import TTNN_CHECK, NotSimulated, ttnn_memory_check


def findings_of(b: BringupRecord, min_bytes: int = DEFAULT_MIN_BYTES):
    """Every finding of every stage (`tb.analyze`): the pure analyses, and the semantic check, which runs the
    interpreter and the captured graph (run/semantics.py)."""
    return analyze(b, min_bytes, running={"meaning": semantic_findings})


class StageFailed(RuntimeError):
    """Raised by bringup(strict=True): the message is the failing stage's error."""


@dataclass
class Bringup(BringupRecord):
    """A bringup's record (core.BringupRecord: what the rooms below read) with what a user calls on it."""

    _repr_html_ = view_method("Bringup._repr_html_", "The synced side-by-side view of every stage.")
    save_html = view_method("Bringup.save_html",
                            "save_html(path, plots=True, also=()): report.html, the notebook view as one "
                            "self-contained file (`also`: further views after it).")
    explorer_files = view_method("Bringup.explorer_files",
                                 "explorer_files(report=None): Model Explorer's graph and overlay files of every "
                                 "stage, by their path in an export folder (explorer/<stage>.json, ...).")

    def weights(self) -> dict:
        """Argument tensors that are not user inputs, by name (what params="args" keeps out of the IR), and
        the tensors hoisted into ml_program globals."""
        out = {a.name: v for a, v in zip(self.arguments, self.argument_values) if a.role not in ("input", "cache")}
        if self.hoisted is not None and self.hoisted.to == "globals":
            out.update({k: torch.from_numpy(v) for k, v in self.hoisted.weights.items()})
        return out

    def load_weights(self, weights) -> "Bringup":
        """Give a meta-device bringup its weight values: a dict {argument name: tensor} or the path of a
        .safetensors file (read lazily: only the tensors the graph takes). Names are b.arguments' names, the
        model's state_dict keys. Each must have the shape and dtype the graph was compiled for. -> self"""
        load_argument_values(self, weights)
        return self

    def _require_values(self, what: str, weights) -> None:
        if weights is not None:
            self.load_weights(weights)
        missing = self.missing_values()
        if not missing:
            return
        inputs = [a.name for a, v in zip(self.arguments, self.argument_values) if v.is_meta and a.role == "input"]
        if inputs:
            raise BadInput(f"{what} needs numbers, and example input(s) {', '.join(inputs)} are on the meta device: "
                           f"bring the model up again with real example inputs")
        raise BadInput(f"{what} needs weight values, and the model was built on the meta device ({len(missing)} "
                       f"weights have shapes only, e.g. {missing[0]}): pass weights={{name: tensor}} or the path of "
                       f"a .safetensors file (names as in b.arguments)")

    @property
    def findings(self):
        """In-place ops, inlined constants, lost locations and verifier failures, per stage (computed once)."""
        if self._findings is None:
            self._findings = findings_of(self)
        return self._findings

    def _require_level_0(self, what: str, device: str) -> None:
        """Work that compiles through the Tenstorrent compiler again does so at its default level: on a bringup
        compiled at another level its results would describe another program than the stages show."""
        ttnn = self.stages.get(StageName.TTNN)
        level = ttnn.meta.get("optimization_level", 0) if ttnn is not None else 0
        if device == "tt" and level:
            raise BadInput(f"{what} on device 'tt' compiles again at the compiler's default level 0, and this "
                           f"bringup was compiled at opt_level={level}: its results would be another program's. "
                           f"Bring the model up at opt_level=0 for it (levels there are not supported yet)")

    def run(self, stage: str = "stablehlo", device: str = "cpu", atol: float = 1e-2, rtol: float = 1e-2,
            pcc: float = 0.99, timeout: Optional[float] = None, expected=None, weights=None, precision: str = "ir"):
        """Compile `stage` for `device`, feed the example inputs (and weights, in order), compare every output
        with the golden: the model run eagerly in PyTorch, onnxruntime for an ONNX file, or the arrays given as
        `expected` (your own reference outputs, in output order). `weights` (see load_weights) gives a model
        built on the meta device its values first.

        stage "ttir" or "ttnn" with device="cpu" executes the compiler's own program op by op in ttbench's
        interpreter (the result's device reads "cpu · TTNN semantics": it checks the program, not the chip's
        kernels); precision="bf16" rounds every float result to bf16 there. stage "ttnn" with device="ttsim"
        replays the program as ttnn calls on Tenstorrent's simulator (`make sim-env`, TTBENCH_TTSIM; see docs/simulator.md).
        timeout: seconds for the run (default 600, 1800 on ttsim: a cold run compiles every kernel). -> RunResult"""
        self._require_values("running a stage", weights)
        self._require_level_0("running a stage", device)

        return run_stage(self, stage=stage, device=device, atol=atol, rtol=rtol, pcc=pcc, timeout=timeout,
                         expected=expected, precision=precision)

    def op_by_op(self, device: str = "cpu", stage: Optional[str] = None, mode: str = "isolated", pcc: float = 0.99,
                 atol: float = 1e-2, rtol: float = 1e-2, timeout: Optional[float] = None, transform=None,
                 progress: bool = True, weights=None):
        """Every op as its own graph (each aten op of the FX graph; each ONNX node for the onnx frontend), run on
        `device` ("isolated" or "chained") against that op's golden value. device="tt" compiles each op through
        TTIR -> TTNN -> flatbuffer (compile-only without a chip); device="ttsim" runs the TTNN program's ops on the
        simulator against the interpreter. `timeout`: seconds per op (default 30), per simulator run on ttsim
        (default 1800). `weights`: as for run(). -> OpByOpReport"""
        self._require_values("op by op", weights)
        self._require_level_0("op by op", device)

        return op_by_op(self, device=device, stage=stage, mode=mode, pcc=pcc, atol=atol, rtol=rtol,
                        timeout=timeout, transform=transform, progress=progress)

    def placement(self):
        """Where the TTNN program puts each op's result, read from its layouts: DRAM or L1, interleaved or sharded
        (by width, height or block), on which core grid; by op and source line. At opt_level 0 every device tensor
        is interleaved in DRAM; levels 1-2 let the compiler's optimizer choose. -> PlacementReport"""
        return placement_report(self)

    def memory(self, ttnn_check: bool = False, ttnn_report: Optional[str] = None):
        """What the TTNN program keeps on the chip across each op, from the program itself (no chip, no weights:
        meta-weight bringups too): the live tensors' tile-padded bytes, L1 per core and DRAM, weights apart, against
        the limits of the chip it was compiled for (its system descriptor), and a verdict: fits, or the first op
        and source line that does not, by how much. Circular buffers (the ops' own L1 use) are not counted: a
        bound, not a measurement. ttnn_check=True also replays the program under ttnn's own graph capture with
        nothing dispatched on a mock device (the simulator's side environment, `make sim-env`; no simulator, no
        chip) and puts ttnn's peak L1 per core, circular buffers included, beside the static figures;
        `ttnn_report=DIR` (a new folder) also keeps ttnn's memory report there (db.sqlite, config.json: what
        Tenstorrent's ttnn-visualizer opens). -> MemoryReport"""
        target = check_new_folder(ttnn_report, "ttnn_report") if ttnn_report is not None else None
        report = memory_report(self)
        if ttnn_check or target is not None:
            try:
                report.ttnn_check = {**ttnn_memory_check(ttnn_program(self, "ttnn's check"), report_dir=target),
                                     "produced_by": TTNN_CHECK}
                if target is not None:
                    report.ttnn_check["report"] = target
            except NotSimulated as exc:
                report.ttnn_check = {"error": str(exc)}
        return report

    def time_bound(self):
        """An ideal-time bound per op and for the model, labelled as a bound everywhere: each op's FLOPs at its
        math fidelity's peak against the DRAM bytes it moves at DRAM bandwidth (the compiler's own figures for the
        chip, from the perf metrics it writes when bringup(opt_level=...) is given), whichever is longer. Compare
        levels by bringing the model up at each. -> BoundReport"""
        return time_bound(self)

    def compiler_metrics(self):
        """The compiler's own view of the program (its perf metrics, written when bringup(opt_level=...) is given):
        per op, sharded or spilled to DRAM, FLOPs and math fidelity, each tied to the program op and source line
        (matched by kind, module and result layout in program order; unmatched ones keep an unknown line), and its
        totals. -> CompilerMetrics"""
        return compiler_metrics(self)

    def compare_levels(self, other: "Bringup", run: bool = True, weights=None) -> LevelComparison:
        """What the compiler's optimizer changed between this bringup's optimization level and `other`'s (the same
        model brought up at another opt_level): per source line, the ops added, removed or fused and where their
        results live; the ideal-time bound at each level where the compiler's metrics were written; with run=True
        both programs run in ttbench's interpreter against the golden, so it says whether the numbers held (the
        interpreter checks the programs the compiler wrote, not the chip). `weights`: as for run(), given to both.
        tb.compare_levels(model, inputs, levels=(0, 2)) brings the model up at both levels first."""
        if weights is not None:
            for b in (self, other):
                b.load_weights(weights)
        report = level_changes(self, other)
        report.bounds_s = tuple(_bound_s(b) for b in (self, other))
        if run:
            report.runs = [_level_run(b) for b in (self, other)]
        return report

    def compare_stages(self, reference_stage: str = "stablehlo", stage: str = "ttnn", min_pcc: float = 0.999,
                       precision: str = "ir", weights=None):
        """Per-op numerics between two stages among torchfx, stablehlo, ttir and ttnn: each runs once with every
        op's value recorded (TTIR/TTNN in ttbench's interpreter, StableHLO on the PJRT CPU client), ops are matched
        by source line, module path and shape (up to the layout change between stages) and compared; the first op
        whose PCC falls below `min_pcc` is where a compiler rewrite changed the numbers. -> StageComparison"""
        self._require_values("compare_stages", weights)
        return compare_stages(self, reference_stage, stage, min_pcc=min_pcc, precision=precision)

    def drift(self, stage: str = "ttnn", device: str = "cpu", precision: str = "bf16", max_runs: int = 20,
              progress: bool = True, weights=None):
        """Which ops the final error pays for when `stage`'s program runs in reduced precision (bf16 on the CPU
        stand-in): parts of the chained run are healed (computed exactly) and ranked by the share of the final
        error each takes away, bisecting the program so the cost grows with log(ops), within `max_runs` chained
        runs; the top ops are also measured alone (what if it ran in f32) and with their repeated-module group.
        -> DriftReport (a ranked table, a plot, one sentence)"""
        self._require_values("drift", weights)
        return drift(self, stage=stage, device=device, precision=precision, max_runs=max_runs, progress=progress)

    def first_failing_op(self, stage: Optional[str] = None, timeout: float = 30.0, progress: bool = True):
        """The first op, in graph order, that does not get through `stage` on its own ("ttnn": the Tenstorrent
        compiler, through TTIR -> TTNN -> flatbuffer; "stablehlo": lowered and run on the CPU) -> its OpRow (op,
        source lines, furthest stage, the compiler's error), or, when every op gets through, a NoFailingOp (false,
        and shown as what was checked). Confirms which op broke a whole-graph stage by compiling ops alone, up to
        the first that fails. By default the stage is "stablehlo" when the bringup failed before the Tenstorrent
        compiler (no TT compile, nor a wait for another one, is needed to find it), else "ttnn"."""
        if stage is None:
            broken = self.failed_stage
            stage = "stablehlo" if broken is not None and broken.name in TORCH_MLIR_STAGES else StageName.TTNN
        devices = {"ttnn": "tt", "ttir": "tt", "stablehlo": "cpu"}
        if stage not in devices:
            raise BadInput(f"first_failing_op checks stage 'ttnn', 'ttir' or 'stablehlo', not {stage!r}")
        self._require_values("first_failing_op (it records each op's inputs from one run)", None)
        self._require_level_0("first_failing_op", devices[stage])
        report = op_by_op(self, device=devices[stage], timeout=timeout, progress=progress,
                          stop_at_first_failure=True)
        failed = report.failed()
        return failed[0] if failed else NoFailingOp(stage, len(report.rows), report.device)

    def export(self, directory: str, extra_files: Optional[dict] = None, explorer: bool = False,
               report=None) -> str:
        """Every stage's IR, manifest.json, the weights and report.html into `directory` (atomically); with
        `explorer`, Model Explorer's graphs and overlays too (`ttbench explore DIR` serves them; `report`: an
        op-by-op report or stage comparison to overlay). A stage comparison with a first divergence also writes
        its standalone reproduction into repro/ (repro.py, checked to fail alone with the stated PCC); an op-by-op
        report from the simulator, a standalone ttnn script per diverging or aborting op (repro/ttsim_op_N/); a drift
        report writes drift.json, and its table and plot go into report.html."""
        facts = divergence_facts(report) if isinstance(report, StageComparison) else {}
        if facts:
            repro = {f"repro/{name}": content for name, content in divergence_files(self, facts).items()}
            extra_files = {**repro, **(extra_files or {})}
        if isinstance(report, OpByOpReport) and report.device == "ttsim":
            repro = {f"repro/{name}": content for name, content in simulator_files(self, report).items()}
            extra_files = {**repro, **(extra_files or {})}
        if isinstance(report, DriftReport):
            extra_files = {"drift.json": report.to_json() + "\n", **(extra_files or {})}
        if explorer:
            extra_files = {**self.explorer_files(report=report), **(extra_files or {})}
        also = [report] if isinstance(report, DriftReport) else []
        return write_bringup(self, directory, self.weights(), self.findings.to_json(),
                             lambda path: self.save_html(path, also=also), extra_files)

    def table(self) -> StageTable:
        return stage_table(self)

    def __repr__(self) -> str:
        return f"<Bringup {self.model_name} frontend={self.frontend} params={self.params}>\n{self.table()}"


_FRAMEWORK_PACKAGES = ("torch", "torch_mlir", "onnx", "onnxscript", "onnx_ir", "jax", "jaxlib", "onnxruntime")
_TTBENCH_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _first_failed(b: Bringup) -> Stage:
    """The stage that failed, in a bringup known not to be ok."""
    failed = b.failed_stage
    if failed is None:
        raise InternalError(f"{b.model_name}: a failed stage was expected; {REPORT_BUGS}")
    return failed


def is_internal_error(exc: BaseException) -> bool:
    """Whether `exc` is ttbench's own bug: raised by ttbench's code itself (the innermost frame is ours), and not
    one of the failures ttbench raises on purpose for a compiler. Exceptions of the frameworks' own types (raised in
    their native code too) and those from the user's model code are the stage's failure."""
    if isinstance(exc, (CompilerFailure, StageFailed, BadInput)):
        return False
    if type(exc).__module__.split(".")[0] in _FRAMEWORK_PACKAGES:  # e.g. torch_mlir's MLIRError from native code
        return False
    tb = exc.__traceback__
    innermost = None
    while tb is not None:
        innermost = tb.tb_frame.f_code.co_filename
        tb = tb.tb_next
    return innermost is not None and os.path.abspath(innermost).startswith(_TTBENCH_DIR)


def _validate_meta(frontend: str, params: str, hoist) -> None:
    """A model on the meta device has shapes, not numbers: only what works from shapes is accepted."""
    if frontend != "export":
        raise BadInput(f"frontend={frontend!r} runs the model, and this one is on the meta device (no weight "
                       f"values): use frontend='export', or build the model with real weights")
    if params != "args":
        raise BadInput("params='inline' puts the weights' values into the IR, and this model is on the meta device "
                       "(no values): use params='args' (the default)")
    if hoist is not None:
        raise BadInput("hoist moves constant values out of the IR, and this model is on the meta device (no "
                       "values): leave hoist out")


def _validate_hoist(options) -> None:
    if options is None:
        return
    if not isinstance(options, dict):
        raise BadInput(f"hoist must be a dict like dict(min_numel=1024, to='args'), got {type(options).__name__}")
    unknown = set(options) - {"min_numel", "to", "mutable"}
    if unknown:
        raise BadInput(f"unknown hoist option(s) {', '.join(sorted(unknown))}: use min_numel, to, mutable")
    if options.get("to", "args") not in HOIST_TARGETS:
        raise BadInput(f"unknown hoist target {options['to']!r}: choose one of {', '.join(HOIST_TARGETS)}")


def _validate(frontend: str, params: str) -> None:
    if frontend not in FRONTENDS:
        raise BadInput(f"unknown frontend {frontend!r}: choose one of {', '.join(FRONTENDS)}")
    if params not in PARAMS_MODES:
        raise BadInput(f"unknown params mode {params!r}: choose one of {', '.join(PARAMS_MODES)}")


def _model_name(model) -> str:
    if isinstance(model, (str, os.PathLike)):
        return os.path.basename(os.fspath(model))
    return type(model).__name__


def _hoisted(stage: Stage, weight_tensors: dict, options: dict):
    """The hoisted form of the stablehlo stage (hoist.Hoisted: its stage, the arguments it adds and their values)."""
    t0 = time.perf_counter()
    hoisted = hoist_constants(stage, weight_names=weights_by_digest(weight_tensors), **options)
    hoisted.stage.seconds = stage.seconds + time.perf_counter() - t0
    hoisted.stage.meta["before_hoist"] = {"ops": len(stage.ops)}
    return hoisted


def _bound_s(b: Bringup) -> Optional[float]:
    """The ideal-time bound's total, or None where the compiler wrote no perf metrics for the stage."""
    return time_bound(b).total_s if PERF_METRICS_FILE in b.stages[StageName.TTNN].artifacts else None


def _ttnn_error(b: Bringup) -> Optional[str]:
    """Why `b` has no compiled ttnn stage ("stage: error"); None when it has one."""
    stage = b.stages.get(StageName.TTNN)
    if stage is not None and stage.ok:
        return None
    failed = stage or b.failed_stage
    return f"{failed.name}: {failed.error}" if failed is not None else "no ttnn stage (tt=False)"


def _level_run(b: Bringup) -> LevelRun:
    level = b.stages[StageName.TTNN].meta["optimization_level"]
    if b.missing_values():
        return LevelRun(level, None, None, "not run: the weights are on the meta device (give weights=)", "")
    result = b.run("ttnn", device="cpu")
    return LevelRun(level, result.ok if result.executed else None, result.pcc, result.message,
                    result.produced_by or result.device)


def compare_levels(model, example_inputs=(), levels=(0, 2), run: bool = True, progress=None, weights=None,
                   **bringup_options) -> LevelComparison:
    """Bring `model` up at two of the Tenstorrent compiler's optimization levels and say what the optimizer changed,
    line by line, and whether the numbers held (Bringup.compare_levels). `bringup_options` go to both bringups. A
    level whose ttnn stage does not compile is reported in the comparison (`errors`), not raised."""
    if not (isinstance(levels, (tuple, list)) and len(levels) == 2 and levels[0] != levels[1] and
            all(level in OPT_LEVELS and not isinstance(level, bool) for level in levels)):
        raise BadInput(f"levels is two different optimization levels among {', '.join(map(str, OPT_LEVELS))}, "
                       f"e.g. (0, 2), not {levels!r}")
    first, second = (bringup(model, example_inputs, opt_level=level, progress=progress, **bringup_options)
                     for level in levels)
    failed = {level: error for level, b in zip(levels, (first, second)) if (error := _ttnn_error(b))}
    if failed:
        return LevelComparison(model=first.model_name, levels=tuple(levels), errors=failed)
    return first.compare_levels(second, run=run, weights=weights)


def bringup(model, example_inputs=(), frontend: Optional[str] = None, params: str = "args", strict: bool = False,
            tt: bool = True, tt_timeout: float = tt_plugin.DEFAULT_TIMEOUT_S, name: Optional[str] = None,
            progress=None, functionalize: bool = False, hoist: Optional[dict] = None,
            dims: Optional[dict] = None, opt_level: Optional[int] = None) -> Bringup:
    """Bring `model` up through every stage: fx|onnx -> torchfx -> stablehlo -> ttir -> ttnn.

    frontend: "export" (default for an nn.Module), "dynamo", or "onnx" (default for a .onnx path or ModelProto).

    hoist=dict(min_numel=1024, to="args"|"globals") moves the large constants out of the StableHLO (see
    hoist.py) before the Tenstorrent compiler sees it; the stablehlo stage shows the result.
    functionalize=True (dynamo frontend) rewrites in-place ops out of place before the import, which is what
    torch.export does by itself; without it the dynamo flow hands in-place aten ops to torch-mlir as they are.

    For an ONNX file, example_inputs may be torch tensors, numpy arrays or a dict by input name; without any,
    seeded random inputs are made, with dims={"batch": 1} fixing named dynamic dimensions.

    A failing stage never raises (unless strict=True): the stages before it stay, later ones are skipped.
    Bad input (wrong types, inputs that do not fit the model, unreadable ONNX) raises BadInput.
    `progress(stage_name)` is called before each stage starts, and `progress.finished(stage)` (when the callable
    has that method) after each one ends, ok or not: big models show each stage's op count as it is known.
    In a notebook, progress=None draws a bar per bringup (tqdm.auto); progress=False draws nothing.

    opt_level: the Tenstorrent compiler's optimization level (0: every tensor interleaved in DRAM; 1 and 2: its
    optimizer chooses L1 placement and sharding, the way production bringups compile). None (the default) compiles
    at the compiler's default, level 0; a level given also asks for the compiler's perf metrics (the ttnn stage's
    perf_metrics.json, which b.time_bound() reads). The level is in the ttir/ttnn stages' meta; a failure only the
    optimizer hits says that level 0 compiles.
    """
    if frontend is None:  # an ONNX file or ModelProto goes through ONNX, a module through torch.export
        frontend = "onnx" if isinstance(model, (str, os.PathLike)) or type(model).__name__ == "ModelProto" \
            else "export"
    _validate(frontend, params)
    _validate_hoist(hoist)
    if tt and not (isinstance(tt_timeout, (int, float)) and math.isfinite(tt_timeout) and tt_timeout > 0):
        raise BadInput(f"tt_timeout must be a finite number of seconds above 0, got {tt_timeout!r}")
    if opt_level is not None and (opt_level not in OPT_LEVELS or isinstance(opt_level, bool)):
        raise BadInput(f"opt_level is one of {', '.join(map(str, OPT_LEVELS))} (the Tenstorrent compiler's "
                       f"optimization levels), not {opt_level!r}")
    if opt_level is not None and not tt:
        raise BadInput("opt_level is the Tenstorrent compiler's: it needs tt=True")
    if dims and frontend != "onnx":
        raise BadInput("dims fixes named dynamic dimensions of an ONNX file's inputs: the onnx frontend only")
    if isinstance(example_inputs, (torch.Tensor, np.ndarray)):
        example_inputs = (example_inputs,)
    if isinstance(example_inputs, dict) and isinstance(model, torch.nn.Module):  # by forward's argument names
        model, example_inputs = fx.keyword_call(model, example_inputs)
    if not isinstance(example_inputs, dict):  # a dict by input name: ONNX files (checked against the graph there)
        example_inputs = tuple(example_inputs)
    if isinstance(model, torch.nn.Module):
        model = model.eval()
        if fx.on_meta(model):
            _validate_meta(frontend, params, hoist)
    options = BringupOptions(frontend=Frontend(frontend), params=ParamsMode(params), strict=strict, tt=tt,
                             tt_timeout=tt_timeout, name=name, functionalize=functionalize, hoist=hoist, dims=dims,
                             opt_level=opt_level)
    names = FRONTEND_STAGES[options.frontend]
    own_bar = StageBar(names if tt else names[:3], name or _model_name(model)) \
        if progress is None and in_notebook() else None
    try:
        with quiet_framework_warnings():
            return _bring_up(model, example_inputs, options, own_bar or progress)
    finally:
        if own_bar is not None:
            own_bar.close()


@dataclass(frozen=True)
class BringupOptions:
    """What bringup() was asked for, validated; every step of the chain reads it."""

    frontend: Frontend
    params: ParamsMode
    strict: bool = False
    tt: bool = True
    tt_timeout: float = tt_plugin.DEFAULT_TIMEOUT_S
    name: Optional[str] = None
    functionalize: bool = False
    hoist: Optional[dict] = None
    dims: Optional[dict] = None
    opt_level: Optional[int] = None


# --- the chain: one step per stage, each from the previous step's artifact to its Stage, the next artifact, and the
# facts it found (fields of the record: arguments, weights, the FX graph); the record is assembled from them. -----

@dataclass
class StepResult:
    stage: Stage
    artifact: Any = None  # what the next step takes
    facts: dict = field(default_factory=dict)  # BringupRecord fields this step found


def _capture(given: tuple, options: BringupOptions, known: Mapping) -> StepResult:
    model, example_inputs = given
    facts: dict = {}
    if options.frontend == Frontend.ONNX:
        stage, cap, facts["example_inputs"] = onnx.capture_onnx(model, example_inputs, options.params, options.dims)
    elif options.frontend == Frontend.EXPORT:
        stage, cap = fx.capture_export(model, example_inputs, options.params)
    else:
        stage, cap = fx.capture_dynamo(model, example_inputs, options.params, functionalize=options.functionalize)
    facts.update(arguments=list(cap.arguments), argument_values=list(cap.values), weight_tensors=cap.weights,
                 fx_graph=getattr(cap, "graph_module", None))
    return StepResult(stage, cap, facts)


def _import(cap, options: BringupOptions, known: Mapping) -> StepResult:
    """The torchfx stage; its artifact is the lowering, already running in its worker while the stage was read."""
    onnx_frontend = options.frontend == Frontend.ONNX
    stage, started = (torchfx.import_onnx if onnx_frontend else torchfx.import_fx)(
        cap, lambda module: stablehlo.start_lowering(module, onnx=onnx_frontend))
    return StepResult(stage, started)


def _lower(started_lowering, options: BringupOptions, known: Mapping) -> StepResult:
    """The stablehlo stage (hoisted when asked); the TT compile takes the stage itself."""
    stage, _ = stablehlo.lower(started_lowering)
    if not options.hoist:
        return StepResult(stage, stage)
    hoisted = _hoisted(stage, known["weight_tensors"], options.hoist)
    facts = {"hoisted": hoisted, "arguments": known["arguments"] + list(hoisted.arguments),
             "argument_values": known["argument_values"] + [torch.from_numpy(hoisted.weights[a.name])
                                                            for a in hoisted.arguments]}
    return StepResult(hoisted.stage, hoisted.stage, facts)


def _compile_tt(stablehlo_stage: Stage, options: BringupOptions, known: Mapping) -> StepResult:
    """Both TT stages come from one compile: ttir's step hands the ttnn stage on as its artifact."""
    ttir, ttnn = compile_tt(stablehlo_stage, known["arguments"], options.params, options.tt_timeout,
                            options.opt_level)
    return StepResult(ttir, ttnn)


def _ttnn(ttnn: Stage, options: BringupOptions, known: Mapping) -> StepResult:
    return StepResult(ttnn)


# (stage, step, needs the Tenstorrent compiler); the first stage is named by the frontend (fx or onnx).
STEPS = ((None, _capture, False), (StageName.TORCHFX, _import, False), (StageName.STABLEHLO, _lower, False),
         (StageName.TTIR, _compile_tt, True), (StageName.TTNN, _ttnn, True))


def _bring_up(model, example_inputs, options: BringupOptions, progress) -> Bringup:
    prestart_worker()  # the lowering's worker process starts while the graph is captured
    return _chain(STEPS, OrderedDict(), {"example_inputs": example_inputs}, (model, example_inputs), model,
                  options.name or _model_name(model), options, progress)


def bringup_from_stablehlo(stablehlo_stage: Stage, arguments: list, argument_values: list, name: str,
                           frontend: str = "export", params: str = "args",
                           tt_timeout: float = tt_plugin.DEFAULT_TIMEOUT_S, progress=None) -> Bringup:
    """A bringup resumed at the TT compile from a StableHLO stage made earlier (a tracker job whose stages up to
    StableHLO are unchanged since they ran: fleet/kept_stages.py). It holds that stage and the TT stages only, and
    no model: its runs need the golden given (run(expected=...))."""
    options = BringupOptions(frontend=Frontend(frontend), params=ParamsMode(params), tt=True, tt_timeout=tt_timeout,
                             name=name)
    facts = {"arguments": list(arguments), "argument_values": list(argument_values)}
    tt_steps = tuple(s for s in STEPS if s[2])
    return _chain(tt_steps, OrderedDict([(StageName.STABLEHLO, stablehlo_stage)]), facts, stablehlo_stage, None,
                  name, options, progress)


def _chain(steps: tuple, stages: OrderedDict, facts: dict, artifact: Any, model, name: str,
           options: BringupOptions, progress) -> Bringup:
    """Run `steps` from `artifact` on, after the `stages` already made -> the Bringup of them all."""
    t_start = time.perf_counter()
    for stage_name, step, needs_tt in steps:
        if needs_tt and not options.tt:
            break
        stage_name = stage_name or FRONTEND_STAGES[options.frontend][0]
        done = _run_step(stages, options, stage_name, step, artifact, facts, progress)
        artifact = done.artifact if done is not None else None
        facts.update(done.facts if done is not None else {})
    result = Bringup(model_name=name, frontend=options.frontend, params=options.params, stages=stages, model=model,
                     **facts)
    for stage in stages.values():
        stage._bringup = result
    if options.strict and not result.ok:
        raise StageFailed(_first_failed(result).error)
    result.seconds = time.perf_counter() - t_start
    return result


def _run_step(stages: OrderedDict, options: BringupOptions, stage_name: str, step, artifact, known: dict,
              progress) -> Optional[StepResult]:
    """Run one step; record its Stage; return what it handed on, or None. A stage after a failed one is skipped; a
    failure is the stage's error (a compiler's, or ttbench's own internal error), never the caller's."""
    if progress:
        progress(stage_name)
    failed = next((s.name for s in stages.values() if not s.ok), None)
    if failed:
        stages[stage_name] = Stage.skipped(stage_name, failed)
        _finished(progress, stages[stage_name])
        return None
    t0 = time.perf_counter()
    try:
        done = step(artifact, options, MappingProxyType(known))
    except BadInput:
        raise
    except Exception as exc:
        internal = is_internal_error(exc)
        if internal:  # ttbench's own bug: said as such, with the traceback, never blamed on a compiler
            error = (f"{stage_name}: {INTERNAL_ERROR}: {type(exc).__name__}: {str(exc)[:300]} "
                     f"({REPORT_BUGS})")
            if options.strict:
                raise InternalError(error) from exc
        else:
            onnx_stage = stages.get(StageName.ONNX)
            node_kinds = {op.attrs["node"]: op.name.removeprefix("onnx.") for op in onnx_stage.ops} \
                if onnx_stage is not None and onnx_stage.ok else {}
            previous = next((s for s in reversed(stages.values()) if s.ok), None)
            error = compiler_error(stage_name, str(exc) if str(exc).strip() else type(exc).__name__, node_kinds,
                                   previous.ops if previous is not None else ())
            if options.strict:
                raise StageFailed(error) from exc
        meta = StageMeta(traceback=traceback.format_exc(limit=-12 if internal else -8))
        if internal:
            meta["internal_error"] = True
        stages[stage_name] = Stage(name=StageName(stage_name), ok=False, seconds=time.perf_counter() - t0,
                                   error=error, meta=meta)
        _finished(progress, stages[stage_name])
        return None
    stages[stage_name] = done.stage
    _finished(progress, done.stage)
    return done


def _finished(progress, stage: Stage) -> None:
    if hasattr(progress, "finished"):
        progress.finished(stage)
