"""The `ttbench` command line: its grammar (build_parser) and the value parsers that turn bad input into one line."""
from __future__ import annotations

import argparse
import math
import sys

from ..core import FRONTENDS, PARAMS_MODES, PROGRAM_STAGES, RUNNABLE_STAGES, VALUE_STAGES, BadInput, check_input_size
from ..fleet.conformance.cases import SAMPLE
from ..fleet.track.statuses import EXPECTED as EXPECTED_STATUSES
from ..fleet.track.tracker import ONNX_SAMPLE
from ..tt.plugin import DEFAULT_TIMEOUT_S


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, instead of argparse's usage block
        print(f"ttbench: error: {message} (see `{self.prog} --help`)", file=sys.stderr)
        sys.exit(2)


def parse_shape(text: str) -> tuple:
    try:
        shape = tuple(int(d) for d in text.lower().split("x"))
    except ValueError:
        raise BadInput(f"--input-shape {text!r} is not a shape like 1x3x224x224") from None
    if not shape or any(d <= 0 for d in shape):
        raise BadInput(f"--input-shape {text!r} must have positive dimensions")

    check_input_size(f"--input-shape {text}", shape, 8)  # the widest element type it may become
    return shape


def port(text: str) -> int:
    """argparse type for a TCP port on 127.0.0.1: 1-65535, or 0 for a free one."""
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (1-65535, or 0 for a free one)")
    return int(text)


def positive_seconds(text: str) -> float:
    """argparse type for timeouts: a finite number of seconds above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a finite number of seconds above 0")
    return value


def parse_hoist(text):
    """'1024' or '1024:globals' -> dict(min_numel=1024, to=...)."""
    if text is None:
        return None
    numel, _, to = text.partition(":")
    if not numel.isdigit():
        raise BadInput(f"--hoist {text!r} must be MIN_NUMEL[:args|globals], e.g. 1024 or 1024:globals")
    if to and to not in ("args", "globals"):
        raise BadInput(f"--hoist target {to!r} must be args or globals")
    return {"min_numel": int(numel), "to": to or "args"}


def parse_dims(items) -> dict:
    """['batch=1', 'seq=128'] -> {'batch': 1, 'seq': 128}."""
    dims = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        if not sep or not name or not value.isdigit() or int(value) <= 0:
            raise BadInput(f"--dim {item!r} must be NAME=VALUE with a positive integer VALUE, e.g. batch=1")
        dims[name] = int(value)
    return dims


def parse_compare(text: str) -> tuple:

    parts = text.split(",")
    if parts == ["ttnn", "ttsim"]:  # the TTNN program on the simulator against the interpreter, op by op
        return tuple(parts)
    if len(parts) != 2 or any(p not in VALUE_STAGES for p in parts) or \
            VALUE_STAGES.index(parts[0]) >= VALUE_STAGES.index(parts[1]):
        raise BadInput(f"--compare takes EARLIER,LATER among {', '.join(VALUE_STAGES)} (e.g. stablehlo,ttnn), "
                       f"or ttnn,ttsim, not {text!r}")
    return tuple(parts)


def _add_run_options(p) -> None:
    """Where a sweep-like command's jobs run and where its results are kept (sweep, conformance)."""
    p.add_argument("--db", help="results database to append to (default: ttbench_results.sqlite in --out, else in "
                   "~/.cache/ttbench)")
    p.add_argument("--label", help="a name for this run (a compiler version, a date), for `ttbench history`")
    p.add_argument("--engine", choices=("local", "ray"), help="where jobs run: worker processes here (default), or "
                   "Ray tasks (default when RAY_ADDRESS is set; without an address, a private local Ray cluster)")
    p.add_argument("--address", help="with --engine ray: the cluster to use (default: RAY_ADDRESS)")


def _command(sub, name: str, help: str):
    """A subcommand whose own --help opens with what it is for (argparse shows `help` only in the list)."""
    return sub.add_parser(name, help=help, description=help[:1].upper() + help[1:] + ".")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="ttbench", description="Every compiler stage of one model, side by side.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = _command(sub, "bringup", help="bring a zoo model or an ONNX file up through every stage")
    p.add_argument("model", help="zoo model name (see `ttbench models`) or path to a .onnx file")
    p.add_argument("--frontend", choices=FRONTENDS, default=None, help="default: export (onnx for .onnx files)")
    p.add_argument("--params", choices=PARAMS_MODES, default="args",
                   help="weights as function arguments (args) or embedded constants (inline)")
    p.add_argument("--out", help="write the stages, manifest.json and weights to this folder (atomically)")
    p.add_argument("--input-shape", action="append", metavar="AxBxC",
                   help="random example input of this shape instead of the model's own (repeat per input)")
    p.add_argument("--inputs", metavar="FILE.npz|DIR",
                   help="example inputs: an .npz (arrays by input name, or arr_0, arr_1, ... in order) or a folder "
                        "of input_0.pb, input_1.pb, ... (ONNX's test-data layout)")
    p.add_argument("--dim", action="append", metavar="NAME=VALUE",
                   help="ONNX files: the value of a named dynamic input dimension for random inputs (repeat)")
    p.add_argument("--hoist", metavar="MIN_NUMEL[:args|globals]",
                   help="move constants with more elements out of the StableHLO (to arguments or ml_program "
                        "globals); the weights go to weights.safetensors")
    p.add_argument("--functionalize", action="store_true",
                   help="dynamo frontend: rewrite in-place ops out of place before the import")
    p.add_argument("--run", metavar="DEVICE", choices=("cpu", "cuda", "tt", "ttsim"),
                   help="run the compiled stage on DEVICE against PyTorch (cpu, cuda, tt, ttsim: the TTNN program "
                        "on Tenstorrent's simulator, see `make sim-env`); writes run.json")
    p.add_argument("--stage", choices=RUNNABLE_STAGES,
                   help="with --run: the stage to run (default stablehlo; ttnn for tt); ttir/ttnn on cpu execute "
                        "the compiler's own program in ttbench's interpreter (not the chip)")
    p.add_argument("--compare", metavar="EARLIER,LATER",
                   help="per-op numerics between two stages among torchfx, stablehlo, ttir, ttnn (e.g. "
                        "stablehlo,ttnn), or ttnn,ttsim (each TTNN op on the simulator against the interpreter): "
                        "the first op that diverges; writes stage_compare.json")
    p.add_argument("--drift", metavar="STAGE", choices=PROGRAM_STAGES,
                   help="which ops the final error pays for when the STAGE program runs in bf16 (ttbench's "
                        "interpreter, the CPU stand-in): a ranked table and one sentence; writes drift.json")
    p.add_argument("--op-by-op", action="store_true", help="with --run: every op on its own; writes op_by_op.json")
    p.add_argument("--explorer", action="store_true",
                   help="with --out: also write each stage as a Model Explorer graph with ttbench's overlays "
                        "(findings, const-eval, op-by-op results) in explorer/")
    p.add_argument("--chained", action="store_true", help="with --op-by-op: feed each op the device's outputs")
    p.add_argument("--save-outputs", metavar="FILE.npz",
                   help="with --run: save the device's outputs and the golden's (output_N, golden_N)")
    p.add_argument("--weights", choices=("random", "meta"),
                   help="zoo models: seeded random weights, or built on the meta device (shapes only: compiles, "
                        "runs only with --weights-file); default: the model's own (meta for llama_8b/llama_70b)")
    p.add_argument("--weights-file", metavar="FILE.safetensors",
                   help="with --run on a model built on meta: its weights by state_dict name, read lazily")
    p.add_argument("--no-tt", action="store_true", help="stop at stablehlo (skip the Tenstorrent compiler)")
    p.add_argument("--tt-timeout", type=positive_seconds, default=DEFAULT_TIMEOUT_S,
                   help=f"seconds for the Tenstorrent compile (default {DEFAULT_TIMEOUT_S:g})")
    p.add_argument("--opt-level", type=int, choices=(0, 1, 2),
                   help="the Tenstorrent compiler's optimization level (and its perf metrics): 0 every tensor "
                        "interleaved in DRAM (the compiler's default); 1, 2 its optimizer places tensors in L1 and "
                        "shards them (the first compile builds kernels: minutes; cached after)")
    p.add_argument("--against-level", type=int, choices=(0, 1, 2),
                   help="with --opt-level: also bring the model up at this level and say what the optimizer changed "
                        "per source line and whether the numbers held at both (ttbench's interpreter); writes "
                        "levels.json")
    p.add_argument("--bound", action="store_true",
                   help="with --opt-level: an ideal-time bound per op and for the model (FLOPs at peak against DRAM "
                        "bytes at bandwidth; a bound, not a measurement)")
    p.add_argument("--memory", action="store_true",
                   help="what the TTNN program keeps on the chip op by op, against the chip's L1 and DRAM (static: "
                        "no chip, no weights needed)")
    p.add_argument("--ttnn-check", action="store_true",
                   help="with --memory: also replay the program under ttnn's own graph capture, nothing dispatched, "
                        "on a mock device (the simulator's side environment, `make sim-env`): ttnn's peak L1 per "
                        "core, circular buffers included")
    p.add_argument("--ttnn-report", metavar="DIR",
                   help="with --memory: --ttnn-check, and ttnn's memory report kept in this new folder (db.sqlite, "
                        "config.json: what Tenstorrent's ttnn-visualizer opens)")
    p.add_argument("--wide", action="store_true", help="the findings table with every column (default: the ones "
                   "that fit 120 columns)")
    d = _command(sub, "diff", help="what changed between two export folders (exit 1 when something did)")
    d.add_argument("a", help="export folder (e.g. a golden)")
    d.add_argument("b", help="export folder to compare with it")
    d.add_argument("--stage", help="only this stage")
    d.add_argument("--html", metavar="FILE", help="also write the diff as a self-contained HTML page")
    d.add_argument("--unified", action="store_true", help="print the unified diff of the normalised IR too")
    sw = _command(sub, "sweep", help="every zoo model through every frontend: a status table")
    sw.add_argument("--models", help="comma-separated zoo names (default: all)")
    sw.add_argument("--frontends", default=",".join(FRONTENDS), help="comma-separated (default: all)")
    sw.add_argument("--out", help="write status.md, status.html and status.json here")
    sw.add_argument("--jobs", type=int, default=2, help="parallel worker processes (default 2)")
    sw.add_argument("--no-tt", action="store_true", help="stop at stablehlo")
    sw.add_argument("--no-run", action="store_true", help="skip the CPU run against PyTorch")
    sw.add_argument("--ops", action="store_true", help="also every op on its own (through the TT compiler, or the "
                    "CPU with --no-tt): writes op_support.md and .json beside the status table")
    sw.add_argument("--known", help="known-failures JSON (default: models/known_failures.json)")
    _add_run_options(sw)
    h = _command(sub, "history", help="what changed between two sweeps in the results database; exit 1 on a "
                                       "regression")
    h.add_argument("--db", help="the results database (default: ~/.cache/ttbench/ttbench_results.sqlite)")
    h.add_argument("--before", help="the older run: its id or label (default: the one before --after)")
    h.add_argument("--after", help="the newer run: its id or label (default: the last)")
    h.add_argument("--html", help="also write a page with each model's furthest stage and PCC over every run")
    c = _command(sub, "conformance", help="ONNX's backend node tests through ttbench and bare torch-mlir: a table")
    c.add_argument("--sample", action="store_true", help=f"the fixed sample of {len(SAMPLE)} tests `make test` runs")
    c.add_argument("--tests", help="comma-separated node test names (e.g. test_abs,test_add)")
    c.add_argument("--ops", help="comma-separated ONNX ops (every test of each)")
    c.add_argument("--jobs", type=int, default=2, help="parallel worker processes (default 2)")
    c.add_argument("--no-tt", action="store_true", help="skip the Tenstorrent compile-only stages")
    c.add_argument("--timeout", type=positive_seconds, default=180.0, help="seconds per test (default 180)")
    c.add_argument("--out", help="write onnx_conformance.md and onnx_conformance.json to this folder (made if new)")
    _add_run_options(c)
    m = _command(sub, "models", help="list the model zoo")
    m.add_argument("--hf", action="store_true",
                   help="list the transformers zoo instead (hf/ARCH: every architecture transformers builds from its "
                        "config, shrunk, random weights) with each one's status from the recorded census")
    m.add_argument("--vision", action="store_true", help="list the vision zoos instead: timm/FAMILY (one model per "
                   "timm architecture family) and torchvision/NAME (classification, detection backbones, "
                   "segmentation, video, optical flow), random weights")
    m.add_argument("--check", action="store_true", help="with --hf: build and run each eagerly now (minutes)")
    m.add_argument("--arch", help="with --hf: comma-separated architectures (default: all)")
    m.add_argument("--out", help="with --check: write the census as JSON to this file")
    t = _command(sub, "track", help="the model tracker: every transformers architecture and vision zoo entry "
                                     "through every stage, failures triaged against the bare route, one "
                                     "reproduction per group")
    t.add_argument("--arch", help="comma-separated architectures and vision zoo entries (default: every transformers "
                   "architecture and every timm/torchvision entry)")
    t.add_argument("--frontends", default="export,onnx", help="among export, onnx, dynamo (default export,onnx; "
                                                              "onnx and dynamo on the sample)")
    t.add_argument("--onnx-sample", type=int, default=ONNX_SAMPLE, help="architectures also taken through the ONNX "
                   f"exporter, and dynamo when asked for (default {ONNX_SAMPLE}, spread over the list; 0: none)")
    t.add_argument("--out", help="write status.md, status.html, status.json and repros/ here (made if new)")
    t.add_argument("--jobs", type=int, default=2, help="parallel jobs (default 2)")
    t.add_argument("--no-tt", action="store_true", help="stop at stablehlo")
    t.add_argument("--no-triage", action="store_true", help="skip the bare-route triage and the reproductions")
    t.add_argument("--timeout", type=positive_seconds, default=1200.0, help="seconds per job (default 1200)")
    t.add_argument("--opt-level", type=int, choices=(1, 2),
                   help="also compile each architecture at this optimization level of the Tenstorrent compiler: a "
                        "column saying whether it compiles there, what the optimizer sharded, and the program's PCC "
                        "in ttbench's interpreter (the first compile builds kernels: minutes)")
    t.add_argument("--from-run", metavar="RUN", help="run no jobs: triage the failures of this track run in --db "
                   "again (an id or a label) and write its page (with --no-triage: its page alone)")
    t.add_argument("--rerun-all", action="store_true", help="run every job again (default: a job whose model, "
                   "options, ttbench code and the packages of the stages it reached are unchanged since the last "
                   "complete track run in --db, or since a later run that stopped part way finished it, is carried "
                   "over from it)")
    t.add_argument("--expected", default=EXPECTED_STATUSES, metavar="PATH", help="the expected status per job "
                   "(default models/track_expected.json): the run exits 1 when a job is worse, and says which are better")
    t.add_argument("--update-expected", action="store_true", help="write this run's statuses into --expected "
                   "(after a run that made jobs better: tightens the table; jobs not run are kept)")
    t.add_argument("--update-known", action="store_true", help="write the upstream failures whose reproduction "
                   "fails the same way into models/known_failures.json (needs --out: the entries point at repros/)")
    _add_run_options(t)
    e = _command(sub, "explore", help="serve a stage of an export folder (written with --explorer) in Model Explorer")
    e.add_argument("folder", help="export folder written by `ttbench bringup ... --out DIR --explorer`")
    e.add_argument("--stage", default="ttnn", help="which stage (default ttnn)")
    e.add_argument("--port", type=port, default=0, help="port on 127.0.0.1 (default: a free one)")
    _command(sub, "doctor", help="what is installed and usable, with hints")
    return parser

