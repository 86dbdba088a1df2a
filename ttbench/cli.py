"""The `ttbench` command.

    ttbench models
    ttbench bringup NAME|PATH.onnx [--frontend F] [--params P] [--out DIR] [--no-tt]
                    [--input-shape AxB ... | --inputs FILE.npz|DIR] [--dim NAME=VALUE ...]
                    [--hoist MIN_NUMEL[:args|globals]] [--run cpu|cuda|tt [--stage S] [--op-by-op [--chained]]
                    [--save-outputs F]] [--compare EARLIER,LATER]
                    [--weights random|meta] [--weights-file F.safetensors]
    ttbench diff DIR_A DIR_B [--stage S] [--html OUT] [--unified]
    ttbench sweep [--models a,b] [--frontends export,dynamo,onnx] [--out DIR] [--jobs N] [--no-tt] [--no-run] [--ops]
                  [--db PATH] [--label NAME] [--engine local|ray [--address RAY_ADDRESS]]
    ttbench history [--db PATH] [--before RUN] [--after RUN] [--html OUT]
    ttbench conformance [--sample | --tests a,b | --ops Abs,Add] [--jobs N] [--no-tt] [--out DIR] [--db PATH]
                        [--engine local|ray [--address RAY_ADDRESS]]
    ttbench explore DIR [--stage S] [--port N]
    ttbench doctor

Exit codes: 0 every stage succeeded (and every comparison passed), 1 a stage failed or a comparison did not
pass (what exists is still written), 2 bad input. `diff`: 0 nothing meaningful changed, 1 something did.
`sweep`: 1 when a failure is not in the known list. `history`: 1 when a job regressed (newly failing, furthest stage
earlier, PCC drop). `conformance`: 0 when it ran (the table is the result).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from .core import FRONTENDS, PARAMS_MODES, BadInput
from .tt.plugin import DEFAULT_TIMEOUT_S


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, instead of argparse's usage block
        print(f"ttbench: error: {message} (see `{self.prog} --help`)", file=sys.stderr)
        sys.exit(2)


class Progress:
    """A progress line on stderr: which stage runs and for how long (ticking while a stage is silent: an 8B model's
    capture takes seconds), then each stage's op count as it ends."""

    TICK_S = 1.0  # on a terminal; a log gets a line every LOG_TICK_S instead
    LOG_TICK_S = 15.0

    def __init__(self, stages, stream=sys.stderr):
        import threading

        self.stages, self.stream, self.t0 = list(stages), stream, time.perf_counter()
        self.tty = stream.isatty()
        self.current, self.since = None, self.t0
        self.lock, self.stop = threading.Lock(), threading.Event()
        self.ticker = threading.Thread(target=self._tick, daemon=True)
        self.ticker.start()

    def _line(self) -> str:
        i = self.stages.index(self.current) + 1 if self.current in self.stages else 0
        now = time.perf_counter()
        return (f"[{i}/{len(self.stages)}] {self.current:<10} {now - self.since:6.1f}s "
                f"(total {now - self.t0:.1f}s)")

    def _write(self, line: str, newline: bool) -> None:
        with self.lock:
            if self.tty:
                self.stream.write("\r" + line.ljust(60) + ("\n" if newline else ""))
            else:
                self.stream.write(line + "\n")
            self.stream.flush()

    def _tick(self) -> None:
        last = time.perf_counter()
        while not self.stop.wait(self.TICK_S):
            if self.current is None:
                continue
            if self.tty:
                self._write(self._line(), newline=False)
            elif time.perf_counter() - last >= self.LOG_TICK_S:
                last = time.perf_counter()
                self._write(self._line() + " still running", newline=True)

    def __call__(self, stage):
        self.current, self.since = stage, time.perf_counter()
        self._write(self._line(), newline=not self.tty)

    def finished(self, stage) -> None:
        if stage.error and stage.error.startswith("skipped"):
            return
        what = f"{len(stage.ops)} ops" if stage.ok else "failed"
        self._write(f"      {stage.name:<10} {what}, {time.perf_counter() - self.since:.1f}s", newline=True)

    def done(self):
        self.stop.set()
        self.current = None
        if self.tty:
            with self.lock:
                self.stream.write("\r" + " " * 60 + "\r")
                self.stream.flush()


def _parse_shape(text: str) -> tuple:
    try:
        shape = tuple(int(d) for d in text.lower().split("x"))
    except ValueError:
        raise BadInput(f"--input-shape {text!r} is not a shape like 1x3x224x224") from None
    if not shape or any(d <= 0 for d in shape):
        raise BadInput(f"--input-shape {text!r} must have positive dimensions")
    from .core import check_input_size

    check_input_size(f"--input-shape {text}", shape, 8)  # the widest element type it may become
    return shape


def _port(text: str) -> int:
    """argparse type for a TCP port on 127.0.0.1: 1-65535, or 0 for a free one."""
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (1-65535, or 0 for a free one)")
    return int(text)


def _positive_seconds(text: str) -> float:
    """argparse type for timeouts: a finite number of seconds above zero."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a finite number of seconds above 0")
    return value


def _parse_hoist(text):
    """'1024' or '1024:globals' -> dict(min_numel=1024, to=...)."""
    if text is None:
        return None
    numel, _, to = text.partition(":")
    if not numel.isdigit():
        raise BadInput(f"--hoist {text!r} must be MIN_NUMEL[:args|globals], e.g. 1024 or 1024:globals")
    if to and to not in ("args", "globals"):
        raise BadInput(f"--hoist target {to!r} must be args or globals")
    return {"min_numel": int(numel), "to": to or "args"}


def _parse_dims(items) -> dict:
    """['batch=1', 'seq=128'] -> {'batch': 1, 'seq': 128}."""
    dims = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        if not sep or not name or not value.isdigit() or int(value) <= 0:
            raise BadInput(f"--dim {item!r} must be NAME=VALUE with a positive integer VALUE, e.g. batch=1")
        dims[name] = int(value)
    return dims


def _resolve_model(target: str, frontend, input_shapes, input_file=None, dims=None, weights=None):
    """NAME or PATH.onnx -> (model, inputs, frontend, display name)."""
    import torch

    from . import models

    from .stages.fx import check_inputs
    from .stages.onnx import load_onnx

    given = None
    if input_file:
        from .io.tensor_files import read_inputs

        given = read_inputs(input_file)
    is_file = target.endswith(".onnx") or os.sep in target or os.path.exists(target)
    if is_file:
        if frontend not in (None, "onnx"):
            raise BadInput(f"{target} is an ONNX file: use --frontend onnx (or leave --frontend out)")
        if weights:
            raise BadInput(f"--weights chooses how a zoo model is built; {target} is an ONNX file with its own")
        inputs = given if given is not None else tuple(torch.randn(s) for s in input_shapes)
        # validates the file and the inputs before any progress is shown
        proto, inputs = load_onnx(os.path.abspath(target), inputs, dims)
        return proto, inputs, "onnx", os.path.basename(target)
    if dims:
        raise BadInput("--dim fixes named dimensions of an ONNX file's inputs: zoo models have fixed inputs")
    model, inputs = models.load(target, weights=weights)
    if given is not None:
        if isinstance(given, dict):
            raise BadInput(f"{target} takes its {len(inputs)} input(s) in order: save them as numpy.savez(path, "
                           f"a, b, ...) (arr_0, arr_1, ...), not by name")
        import numpy as np

        inputs = tuple(torch.from_numpy(np.ascontiguousarray(x)) for x in given)
    elif input_shapes:
        if len(input_shapes) != len(inputs):
            raise BadInput(f"{target} takes {len(inputs)} input(s), --input-shape gave {len(input_shapes)}")
        gen = torch.Generator().manual_seed(0)
        inputs = tuple(torch.randn(s, generator=gen).to(x.dtype) if x.dtype.is_floating_point
                       else torch.randint(0, 2, s, generator=gen).to(x.dtype) for s, x in zip(input_shapes, inputs))
    check_inputs(model, inputs)
    return model, inputs, frontend or "export", target


def _parse_compare(text: str) -> tuple:
    from .run.stage_values import VALUE_STAGES

    parts = text.split(",")
    if len(parts) != 2 or any(p not in VALUE_STAGES for p in parts) or \
            VALUE_STAGES.index(parts[0]) >= VALUE_STAGES.index(parts[1]):
        raise BadInput(f"--compare takes EARLIER,LATER among {', '.join(VALUE_STAGES)} (e.g. stablehlo,ttnn), "
                       f"not {text!r}")
    return tuple(parts)


def cmd_bringup(args) -> int:
    from .core import FRONTEND_STAGES
    from .pipeline import bringup

    if (args.op_by_op or args.chained) and not args.run:
        raise BadInput("--op-by-op and --chained need --run DEVICE")
    if args.stage and not args.run:
        raise BadInput("--stage picks the stage --run runs: give --run DEVICE too")
    if args.stage in ("ttir", "ttnn") and args.run == "cuda" or args.stage == "ttir" and args.run == "tt":
        raise BadInput(f"--stage {args.stage} runs on cpu (ttbench's interpreter of the compiler's program)"
                       f"{' or tt' if args.stage == 'ttnn' else ''}, not {args.run}")
    compare = _parse_compare(args.compare) if args.compare else None
    if (args.stage in ("ttir", "ttnn") or compare) and args.no_tt:
        raise BadInput("--stage ttir/ttnn and --compare need the Tenstorrent stages: leave out --no-tt")
    if args.chained and args.run == "tt":
        from .run.devices import device

        if not device("tt").usable:
            raise BadInput("--chained feeds each op the device's outputs, and tt is compile-only here (no chip): "
                           "use --op-by-op alone")
    if args.explorer and not args.out:
        raise BadInput("--explorer writes Model Explorer's graphs into the export folder: give --out DIR too")
    if args.out:
        from .io.export import check_export_target

        check_export_target(args.out)  # before any work: never replace a user's folder, never fail at the end
    if args.inputs and args.input_shape:
        raise BadInput("give --inputs or --input-shape, not both")
    if args.save_outputs:
        if not args.run:
            raise BadInput("--save-outputs needs --run DEVICE")
        from .io.atomic import check_file_target

        check_file_target(args.save_outputs)
    if args.weights_file and not os.path.isfile(args.weights_file):
        raise BadInput(f"--weights-file {args.weights_file} does not exist: give a .safetensors file")
    shapes = [_parse_shape(s) for s in args.input_shape or ()]
    hoist = _parse_hoist(args.hoist)
    model, inputs, frontend, name = _resolve_model(args.model, args.frontend, shapes, args.inputs,
                                                   _parse_dims(args.dim), args.weights)
    from .stages.fx import on_meta

    if args.run and on_meta(model) and not args.weights_file:
        raise BadInput(f"--run needs weight values, and {name} is built on the meta device (shapes only): give "
                       f"--weights-file FILE.safetensors, or --weights random for a model that fits in memory")
    progress = Progress(FRONTEND_STAGES[frontend])
    try:
        b = bringup(model, inputs, frontend=frontend, params=args.params, tt=not args.no_tt,
                    tt_timeout=args.tt_timeout, name=name, progress=progress, functionalize=args.functionalize,
                    hoist=hoist)
    finally:
        progress.done()
    print(f"{name}  frontend={frontend}  params={args.params}  {b.seconds:.1f}s")
    print(b.table())
    if b.hoisted is not None:
        from .analysis.const_eval import const_eval_report
        from .analysis.findings import human_bytes

        h = b.hoisted
        print(f"hoisted {len(h.tensors)} constants ({human_bytes(sum(t.nbytes for t in h.tensors))}) "
              f"with more than {h.min_numel} elements to {h.to}")
        report = const_eval_report(b)
        tt_part = (f"; tt-mlir const-eval: {report['tt_const_eval']['ops']} ops in "
                   f"{report['tt_const_eval']['functions']} functions" if report["tt_const_eval"] else "")
        print(f"const-eval candidates: {len(report['candidates'])} subgraphs, {report['candidate_ops']} ops{tt_part}")
    counts = ", ".join(f"{k} {v}" for k, v in b.findings.counts().items())
    print(f"\nfindings: {counts}\n{b.findings.summary()}")
    tt = b.stages.get("ttnn")
    if tt is not None and tt.meta.get("target"):
        extra = f", flatbuffer {tt.meta['flatbuffer_bytes']:,} bytes" if tt.meta.get("flatbuffer_bytes") else ""
        if "const_eval_ops" in tt.meta:
            extra += f", const-eval: {tt.meta['const_eval_ops']} ops in {tt.meta['const_eval_functions']} functions"
        print(f"tt: {tt.meta['target']}{extra}")
    extra, compared_ok, op_report = {}, True, None
    if args.run:
        stage = args.stage or ("ttnn" if args.run == "tt" else "stablehlo")
        result = b.run(stage, device=args.run, weights=args.weights_file)
        against = f" (against {result.golden})" if result.golden else ""
        print(f"\nrun: {result.stage} on {result.device}: {'ok' if result.ok else 'FAILED'} - {result.message}"
              f"{against}")
        extra["run.json"] = result.to_json() + "\n"
        if args.save_outputs and result.arrays:
            print(f"wrote {result.save_outputs(args.save_outputs)} (output_N: {result.stage} on {result.device}, "
                  f"golden_N: {result.golden or 'none'})")
        elif args.save_outputs:
            print(f"nothing written to {args.save_outputs}: no outputs ({result.message})")
        compared_ok = result.ok or not result.executed and args.run == "tt"  # compile-only is not a mismatch
        if args.op_by_op:
            report = op_report = b.op_by_op(device=args.run, mode="chained" if args.chained else "isolated")
            print(report.summary())
            for row in report.failed()[:10]:
                print(f"  #{row.index} {row.op} ({', '.join(row.locations[:2])}): {row.error}")
            extra["op_by_op.json"] = report.to_json() + "\n"
            compared_ok = compared_ok and report.ok
    if compare:
        comparison = b.compare_stages(*compare, weights=args.weights_file)
        print(comparison.summary())
        extra["stage_compare.json"] = comparison.to_json() + "\n"
        compared_ok = compared_ok and comparison.ok
        op_report = op_report or comparison  # the explorer overlays it on the later stage
    if args.explorer:
        from .render.model_explorer import explorer_files

        extra.update(explorer_files(b, report=op_report))
    if args.out:
        path = b.export(args.out, extra)
        print(f"wrote {path}")
        if args.explorer:
            print(f"Model Explorer graphs in {path}/explorer: `ttbench explore {path} --stage ttnn`")
    return 0 if b.ok and compared_ok else 1


def cmd_diff(args) -> int:
    from .diff import diff_folders

    if args.html:
        from .io.atomic import check_file_target

        check_file_target(args.html)
    result = diff_folders(args.a, args.b, stage=args.stage)
    print(result.text(unified=args.unified))
    if args.html:
        result.save_html(args.html)
        print(f"wrote {args.html}")
    return 1 if result.changed else 0


def cmd_sweep(args) -> int:
    from .fleet import sweep as sw

    model_names = [m for m in (args.models or "").split(",") if m] or None
    frontends = [f for f in args.frontends.split(",") if f]

    def progress(done, total, row):
        print(f"[{done}/{total}] {row['model']}/{row['frontend']}: {row['status']}", file=sys.stderr, flush=True)

    from .fleet.results_db import default_path

    if args.out:
        os.makedirs(args.out, exist_ok=True)
    db_path = args.db or default_path(args.out)
    rows = sw.sweep(model_names, frontends, jobs=args.jobs, tt=not args.no_tt, run=not args.no_run,
                    known_path=args.known or sw.KNOWN_FAILURES, progress=progress, ops=args.ops, db_path=db_path,
                    label=args.label, engine=args.engine, address=args.address)
    print(sw.markdown(rows))
    for r in rows:
        if r["status"] == "known failure now passes":
            print(f"{r['model']}/{r['frontend']} is listed as a known failure but passes now: remove it from "
                  f"{args.known or sw.KNOWN_FAILURES}")
    if args.out:
        for path in sw.write(rows, args.out):
            print(f"wrote {path}")
    print(f"results appended to {db_path} (`ttbench history --db {db_path}` compares the last two runs)")
    return 1 if any(r["status"] == "new failure" for r in rows) else 0


def cmd_history(args) -> int:
    from .fleet import results_db

    path = args.db or results_db.default_path()
    if not os.path.isfile(path):
        raise BadInput(f"no results database at {path}: run `ttbench sweep` first, or give --db PATH")
    db = results_db.connect(path)
    before = results_db.resolve_run(db, args.before) if args.before else None
    after = results_db.resolve_run(db, args.after) if args.after else None
    result = results_db.history(db, before, after)
    print(result.text())
    if args.html:
        from .io.atomic import check_file_target, write_text_atomic
        from .render.history_html import history_page

        check_file_target(args.html)
        print(f"wrote {write_text_atomic(args.html, history_page(results_db.series(db), result))}")
    return 1 if result.regressed else 0


def cmd_conformance(args) -> int:
    from .fleet import conformance as conf

    if args.out:
        if not os.path.isdir(args.out):
            raise BadInput(f"--out {args.out} is not a folder")
        from .io.atomic import check_file_target

        check_file_target(os.path.join(args.out, "onnx_conformance.md"))
    names = list(conf.SAMPLE) if args.sample else [n for n in (args.tests or "").split(",") if n] or None
    ops = [o for o in (args.ops or "").split(",") if o] or None
    t0 = time.perf_counter()

    from .fleet import results_db

    db_path = args.db or results_db.default_path(args.out)
    db = results_db.connect(db_path)  # before any work: a bad path is a one-line error
    run_id = results_db.start_run(db, "conformance", args.label)

    def progress(done, total, row):
        r = row["ttbench"]
        state = "pass" if r.get("cpu") == "match" else (r.get("error") or "?")[:100]
        print(f"[{done}/{total}] {row['test']}: {state}", file=sys.stderr, flush=True)
        results_db.add_job(db, run_id, results_db.conformance_job(row))

    rows = conf.run(names, ops, jobs=args.jobs, tt=not args.no_tt, timeout=args.timeout, progress=progress,
                    engine=args.engine, address=args.address)
    db.close()
    seconds = time.perf_counter() - t0
    text = conf.markdown(rows, seconds, tt=not args.no_tt)
    print(text if len(rows) <= 200 else "\n".join(text.splitlines()[:12]))
    if args.out:
        for path in conf.write(rows, args.out, seconds, tt=not args.no_tt):
            print(f"wrote {path}")
    print(f"results appended to {db_path}")
    return 0


def cmd_models(args) -> int:
    from . import models

    names = models.names()
    width = max(map(len, names), default=0)
    for n in names:
        print(f"{n.ljust(width)}  {models.describe(n)}")
    return 0


def cmd_explore(args) -> int:
    """Serve one stage of an export folder written with --explorer in Model Explorer until Ctrl+C."""
    from .render.model_explorer import saved_files, serve_files

    if not os.path.isdir(args.folder):
        raise BadInput(f"{args.folder} is not a folder: give an export folder written with --explorer")
    graph, overlays = saved_files(args.folder, args.stage)
    server = serve_files(graph, overlays, port=args.port)
    print(f"Model Explorer: {server.url}\n(overlays: {', '.join(os.path.basename(p) for p in overlays) or 'none'}; "
          f"Ctrl+C stops it)", flush=True)
    try:
        server.process.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


def cmd_doctor(args) -> int:
    from .doctor import report

    text, ok = report()
    print(text)
    return 0 if ok else 1


def _add_run_options(p) -> None:
    """Where a sweep-like command's jobs run and where its results are kept (sweep, conformance)."""
    p.add_argument("--db", help="results database to append to (default: ttbench_results.sqlite in --out, else in "
                   "~/.cache/ttbench)")
    p.add_argument("--label", help="a name for this run (a compiler version, a date), for `ttbench history`")
    p.add_argument("--engine", choices=("local", "ray"), help="where jobs run: worker processes here (default), or "
                   "Ray tasks (default when RAY_ADDRESS is set; without an address, a private local Ray cluster)")
    p.add_argument("--address", help="with --engine ray: the cluster to use (default: RAY_ADDRESS)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="ttbench", description="Every compiler stage of one model, side by side.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("bringup", help="bring a zoo model or an ONNX file up through every stage")
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
    p.add_argument("--run", metavar="DEVICE", choices=("cpu", "cuda", "tt"),
                   help="run the compiled stage on DEVICE against PyTorch (cpu, cuda, tt); writes run.json")
    p.add_argument("--stage", choices=("fx", "stablehlo", "ttir", "ttnn"),
                   help="with --run: the stage to run (default stablehlo; ttnn for tt); ttir/ttnn on cpu execute "
                        "the compiler's own program in ttbench's interpreter (not the chip)")
    p.add_argument("--compare", metavar="EARLIER,LATER",
                   help="per-op numerics between two stages among torchfx, stablehlo, ttir, ttnn (e.g. "
                        "stablehlo,ttnn): the first op that diverges; writes stage_compare.json")
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
    p.add_argument("--tt-timeout", type=_positive_seconds, default=DEFAULT_TIMEOUT_S,
                   help=f"seconds for the Tenstorrent compile (default {DEFAULT_TIMEOUT_S:g})")
    p.set_defaults(func=cmd_bringup)
    d = sub.add_parser("diff", help="what changed between two export folders (exit 1 when something did)")
    d.add_argument("a", help="export folder (e.g. a golden)")
    d.add_argument("b", help="export folder to compare with it")
    d.add_argument("--stage", help="only this stage")
    d.add_argument("--html", metavar="FILE", help="also write the diff as a self-contained HTML page")
    d.add_argument("--unified", action="store_true", help="print the unified diff of the normalised IR too")
    d.set_defaults(func=cmd_diff)
    sw = sub.add_parser("sweep", help="every zoo model through every frontend: a status table")
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
    sw.set_defaults(func=cmd_sweep)
    h = sub.add_parser("history", help="what changed between two sweeps in the results database; exit 1 on a "
                                       "regression")
    h.add_argument("--db", help="the results database (default: ~/.cache/ttbench/ttbench_results.sqlite)")
    h.add_argument("--before", help="the older run: its id or label (default: the one before --after)")
    h.add_argument("--after", help="the newer run: its id or label (default: the last)")
    h.add_argument("--html", help="also write a page with each model's furthest stage and PCC over every run")
    h.set_defaults(func=cmd_history)
    c = sub.add_parser("conformance", help="ONNX's backend node tests through ttbench and bare torch-mlir: a table")
    c.add_argument("--sample", action="store_true", help="the fixed sample of ~40 tests `make test` runs")
    c.add_argument("--tests", help="comma-separated node test names (e.g. test_abs,test_add)")
    c.add_argument("--ops", help="comma-separated ONNX ops (every test of each)")
    c.add_argument("--jobs", type=int, default=2, help="parallel worker processes (default 2)")
    c.add_argument("--no-tt", action="store_true", help="skip the Tenstorrent compile-only stages")
    c.add_argument("--timeout", type=_positive_seconds, default=180.0, help="seconds per test (default 180)")
    c.add_argument("--out", help="write onnx_conformance.md and onnx_conformance.json to this folder")
    _add_run_options(c)
    c.set_defaults(func=cmd_conformance)
    sub.add_parser("models", help="list the model zoo").set_defaults(func=cmd_models)
    e = sub.add_parser("explore", help="serve a stage of an export folder (written with --explorer) in Model Explorer")
    e.add_argument("folder", help="export folder written by `ttbench bringup ... --out DIR --explorer`")
    e.add_argument("--stage", default="ttnn", help="which stage (default ttnn)")
    e.add_argument("--port", type=_port, default=0, help="port on 127.0.0.1 (default: a free one)")
    e.set_defaults(func=cmd_explore)
    sub.add_parser("doctor", help="what is installed and usable, with hints").set_defaults(func=cmd_doctor)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BadInput as exc:
        print(f"ttbench: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ttbench: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
