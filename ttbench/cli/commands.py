"""What each `ttbench` subcommand does, given its parsed arguments; exit codes as the package docstring says."""
from __future__ import annotations

import json
import os
import sys
import time

from .. import hf_zoo, models, vision_zoo
from ..records.findings import SUMMARY_COLUMNS
from ..core import FRONTEND_STAGES, PROGRAM_STAGES, BadInput, human_bytes, StageName
from ..diff import diff_folders
from ..doctor import report
from ..fleet import conformance as conf, results_db, sweep as sw, track as tracker
from ..fleet.track import page as track_page
from ..fleet.track import statuses as track_statuses
from ..fleet.results_db import default_path
from ..io.atomic import check_file_target, check_new_folder, check_page_folder, write_text_atomic
from ..io.export import REPORT, check_export_target
from ..progress import ProgressLine
from ..render.history_html import history_page
from ..render.model_explorer import saved_files, serve_files
from ..run.devices import device
from ..targets import load_target
from .args import parse_compare, parse_dims, parse_hoist, parse_shape


def cmd_bringup(args) -> int:
    from ..pipeline import bringup  # lazy: imports torch (~2.5 s)

    if (args.op_by_op or args.chained) and not args.run:
        raise BadInput("--op-by-op and --chained need --run DEVICE")
    if args.stage and not args.run:
        raise BadInput("--stage picks the stage --run runs: give --run DEVICE too")
    if args.run == "ttsim" and args.stage not in (None, "ttnn"):
        raise BadInput(f"--run ttsim replays the TTNN program on the simulator: --stage ttnn (or leave it out), "
                       f"not {args.stage}")
    if args.stage in PROGRAM_STAGES and args.run == "cuda" or args.stage == StageName.TTIR and args.run == "tt":
        raise BadInput(f"--stage {args.stage} runs on cpu (ttbench's interpreter of the compiler's program)"
                       f"{' or tt' if args.stage == 'ttnn' else ''}, not {args.run}")
    compare = parse_compare(args.compare) if args.compare else None
    if (args.stage in PROGRAM_STAGES or compare or args.drift or args.opt_level is not None or args.memory or
            args.against_level is not None) and args.no_tt:
        raise BadInput("--opt-level, --memory, --against-level, --stage ttir/ttnn, --compare and --drift need the "
                       "Tenstorrent stages: leave out --no-tt")
    if args.opt_level and args.run == "tt":
        raise BadInput(f"--run tt compiles again at the compiler's default level 0: leave out --opt-level "
                       f"{args.opt_level}, or run the stage on cpu or ttsim")
    if (args.ttnn_check or args.ttnn_report) and not args.memory:
        raise BadInput("--ttnn-check and --ttnn-report put ttnn's figures beside the static memory report: give "
                       "--memory too")
    if args.ttnn_report:
        check_new_folder(args.ttnn_report, "--ttnn-report")
    if args.against_level is not None and args.opt_level in (None, args.against_level):
        raise BadInput("--against-level compares two levels: give --opt-level too, a different one")
    if args.bound and args.opt_level is None:
        raise BadInput("--bound uses the compiler's perf metrics, written when a level is asked for: give "
                       "--opt-level 0, 1 or 2")
    if args.chained and args.run == "tt":
        if not device("tt").usable:
            raise BadInput("--chained feeds each op the device's outputs, and tt is compile-only here (no chip): "
                           "use --op-by-op alone")
    if args.explorer and not args.out:
        raise BadInput("--explorer writes Model Explorer's graphs into the export folder: give --out DIR too")
    if args.out:
        check_export_target(args.out)  # before any work: never replace a user's folder, never fail at the end
    if args.inputs and args.input_shape:
        raise BadInput("give --inputs or --input-shape, not both")
    if args.save_outputs:
        if not args.run:
            raise BadInput("--save-outputs needs --run DEVICE")

        check_file_target(args.save_outputs)
    if args.weights_file and not os.path.isfile(args.weights_file):
        raise BadInput(f"--weights-file {args.weights_file} does not exist: give a .safetensors file")
    shapes = [parse_shape(s) for s in args.input_shape or ()]
    hoist = parse_hoist(args.hoist)
    model, inputs, frontend, name = load_target(args.model, args.frontend, shapes, args.inputs,
                                                   parse_dims(args.dim), args.weights)
    from ..stages.fx import on_meta  # lazy: imports torch (~2.5 s)

    if args.run and on_meta(model) and not args.weights_file:
        raise BadInput(f"--run needs weight values, and {name} is built on the meta device (shapes only): give "
                       f"--weights-file FILE.safetensors, or --weights random for a model that fits in memory")
    progress = ProgressLine(FRONTEND_STAGES[frontend])
    try:
        b = bringup(model, inputs, frontend=frontend, params=args.params, tt=not args.no_tt,
                    tt_timeout=args.tt_timeout, name=name, progress=progress, functionalize=args.functionalize,
                    hoist=hoist, opt_level=args.opt_level)
    finally:
        progress.done()
    level = f"  opt_level={args.opt_level}" if args.opt_level is not None else ""
    print(f"{name}  frontend={frontend}  params={args.params}{level}  {b.seconds:.1f}s")
    ttnn = b.stages.get(StageName.TTNN)
    if args.opt_level and ttnn is not None and ttnn.ok:
        print(b.placement().summary())
        print(b.compiler_metrics().summary())
    if args.memory and ttnn is not None and ttnn.ok:
        print(b.memory(ttnn_check=args.ttnn_check, ttnn_report=args.ttnn_report).summary())
    if args.bound and ttnn is not None and ttnn.ok:
        print(b.time_bound().summary())
    extra, compared_ok, op_report = {}, True, None
    if args.against_level is not None:
        progress = ProgressLine(FRONTEND_STAGES[frontend])
        try:
            other = bringup(model, inputs, frontend=frontend, params=args.params, tt_timeout=args.tt_timeout,
                            name=name, progress=progress, functionalize=args.functionalize, hoist=hoist,
                            opt_level=args.against_level)
        finally:
            progress.done()
        if ttnn is not None and ttnn.ok and other.stages.get(StageName.TTNN) and other.stages[StageName.TTNN].ok:
            levels = other.compare_levels(b, weights=args.weights_file)
            print(levels.summary())
            extra["levels.json"] = levels.to_json() + "\n"
            compared_ok = levels.numbers_held is not False
        else:
            print(f"levels not compared: the ttnn stage does not compile at level "
                  f"{args.against_level if ttnn is not None and ttnn.ok else args.opt_level}")
            compared_ok = False
    print(b.table())
    if b.hoisted is not None:
        from ..analysis.const_eval import const_eval_report  # lazy: imports torch (~2.5 s)

        h = b.hoisted
        print(f"hoisted {len(h.tensors)} constants ({human_bytes(sum(t.nbytes for t in h.tensors))}) "
              f"with more than {h.min_numel} elements to {h.to}")
        report = const_eval_report(b)
        tt_part = (f"; tt-mlir const-eval: {report['tt_const_eval']['ops']} ops in "
                   f"{report['tt_const_eval']['functions']} functions" if report["tt_const_eval"] else "")
        print(f"const-eval candidates: {len(report['candidates'])} subgraphs, {report['candidate_ops']} ops{tt_part}")
    summary = b.findings.summary()
    print(f"\n{b.findings.counts_line()}; per stage:\n"
          f"{summary.text(SUMMARY_COLUMNS) if args.wide else summary.text() + chr(10) + '(--wide: every column)'}")
    tt = b.stages.get(StageName.TTNN)
    if tt is not None and tt.meta.get("target"):
        details = f", flatbuffer {tt.meta['flatbuffer_bytes']:,} bytes" if tt.meta.get("flatbuffer_bytes") else ""
        if "const_eval_ops" in tt.meta:
            details += f", const-eval: {tt.meta['const_eval_ops']} ops in {tt.meta['const_eval_functions']} functions"
        print(f"tt: {tt.meta['target']}{details}")
    if args.run:
        stage = args.stage or ("ttnn" if args.run in ("tt", "ttsim") else "stablehlo")
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
    if args.drift:
        drift = b.drift(stage=args.drift, weights=args.weights_file)
        print(f"\n{drift}")
        extra["drift.json"] = drift.to_json() + "\n"
        op_report = op_report or drift  # its view goes into report.html, its overlay into the explorer files
    if args.out:
        path = b.export(args.out, extra, explorer=args.explorer, report=op_report)
        print(f"wrote {path}")
        print(f"report: {os.path.join(os.path.abspath(path), REPORT)} (every stage side by side; open it in a browser)")
        if args.explorer:
            print(f"Model Explorer graphs in {path}/explorer: `ttbench explore {path} --stage ttnn`")
    return 0 if b.ok and compared_ok else 1


def cmd_diff(args) -> int:
    if args.html:
        check_file_target(args.html)
    result = diff_folders(args.a, args.b, stage=args.stage)
    print(result.text(unified=args.unified))
    if args.html:
        result.save_html(args.html)
        print(f"wrote {args.html}")
    return 1 if result.changed else 0


def cmd_sweep(args) -> int:
    model_names = [m for m in (args.models or "").split(",") if m] or None
    frontends = [f for f in args.frontends.split(",") if f]

    def progress(done, total, row):
        print(f"[{done}/{total}] {row['model']}/{row['frontend']}: {row['status']}", file=sys.stderr, flush=True)

    if args.out:
        check_page_folder(args.out, sw.MADE_BY, sw.PAGES, sw.PAGE_KEYS)
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
    return 1 if any(r["status"] in ("new failure", sw.INCORRECT) for r in rows) else 0


def cmd_track(args) -> int:
    archs = [a.removeprefix(hf_zoo.PREFIX) for a in (args.arch or "").split(",") if a] or None
    frontends = [f for f in args.frontends.split(",") if f]
    if args.from_run is None:
        tracker.plan(archs, frontends, args.onnx_sample)  # bad input is one line before any work
    if args.opt_level is not None and (args.no_tt or args.from_run is not None):
        raise BadInput("--opt-level compiles each job again at that level: it needs the Tenstorrent stages and new "
                       "jobs (not --no-tt, not --from-run)")
    if args.update_known and (not args.out or args.no_triage):
        raise BadInput("--update-known needs --out (its entries point at the reproductions there) and the triage")
    if args.out:
        check_page_folder(args.out, track_page.MADE_BY, track_page.PAGES, track_page.PAGE_KEYS,
                          ("repros", track_page.JOBS_FOLDER))
        os.makedirs(args.out, exist_ok=True)
    db_path = args.db or default_path(args.out)

    def progress(phase, done, total, row):
        state = row.get("verdict") or row.get("status") or ""
        print(f"[{phase} {done}/{total}] {row['model']}/{row['frontend']}: {state}", file=sys.stderr, flush=True)

    result = tracker.track(archs, frontends, args.onnx_sample, jobs=args.jobs, tt=not args.no_tt,
                           triage=not args.no_triage,
                           repro_root=os.path.join(args.out, "repros") if args.out else None, db_path=db_path,
                           label=args.label, engine=args.engine, address=args.address, progress=progress,
                           timeout=args.timeout, from_run=args.from_run, opt_level=args.opt_level,
                           expected=args.expected, carry_over=not args.rerun_all)
    print(track_page.markdown(result))
    if args.out:
        for path in track_page.write(result, args.out):
            print(f"wrote {path}")
    if args.update_known:
        added, dropped = tracker.update_known(result, sw.KNOWN_FAILURES, os.path.join(args.out, "repros"))
        print(f"{sw.KNOWN_FAILURES}: {added} upstream failures added, {dropped} dropped (they pass now, or are "
              f"no longer reproduced)")
    if result.judged is not None:
        print(track_statuses.expected_text(result.judged, args.expected))
    if args.update_expected:
        print(f"wrote {track_statuses.write_expected(result.rows, args.expected, not args.no_tt)}")
    print(f"results appended to {db_path} (`ttbench history --db {db_path}` compares the last two track runs)")
    return 1 if result.regressed or (result.worse_than_expected and not args.update_expected) else 0


def cmd_history(args) -> int:
    path = args.db or results_db.default_path()
    with results_db.readable(path):  # a damaged database is one line and exit 2, never a traceback under exit 1
        db = results_db.connect_readonly(path)
        before = results_db.resolve_run(db, args.before) if args.before else None
        after = results_db.resolve_run(db, args.after) if args.after else None
        result = results_db.history(db, before, after)
        series = results_db.series(db) if args.html else None
    print(result.text())
    if args.html:
        check_file_target(args.html)
        print(f"wrote {write_text_atomic(args.html, history_page(series, result))}")
    return 1 if result.regressed else 0


def cmd_conformance(args) -> int:
    if args.out:
        if os.path.lexists(args.out) and not os.path.isdir(args.out):
            raise BadInput(f"--out {args.out} is not a folder")
        if not os.path.isdir(args.out):
            check_file_target(args.out)  # a new folder: its parent must be one the user can write
            os.makedirs(args.out)
        check_file_target(os.path.join(args.out, "onnx_conformance.md"))
    names = list(conf.SAMPLE) if args.sample else [n for n in (args.tests or "").split(",") if n] or None
    ops = [o for o in (args.ops or "").split(",") if o] or None
    t0 = time.perf_counter()

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
    results_db.finish_run(db, run_id)
    db.close()
    seconds = time.perf_counter() - t0
    text = conf.markdown(rows, seconds, tt=not args.no_tt, jobs=args.jobs)
    print(text if len(rows) <= 200 else "\n".join(text.splitlines()[:12]))
    if args.out:
        for path in conf.write(rows, args.out, seconds, tt=not args.no_tt, jobs=args.jobs):
            print(f"wrote {path}")
    print(f"results appended to {db_path}")
    return 0


def cmd_models(args) -> int:
    if args.hf:
        return _hf_models(args)
    if args.vision:
        if args.check or args.arch or args.out:
            raise BadInput("--check, --arch and --out go with --hf")
        names = vision_zoo.entries()
        if not names:
            raise BadInput("the vision zoos need torchvision and timm: `make setup` installs them")
        for name in names:
            detail = vision_zoo.timm_families().get(name[len(vision_zoo.TIMM):]) if name.startswith(
                vision_zoo.TIMM) else vision_zoo.torchvision_models()[name[len(vision_zoo.TORCHVISION):]]
            print(f"{name:40}  {detail}")
        print(f"{len(names)} entries")
        return 0
    if args.check or args.arch or args.out:
        raise BadInput("--check, --arch and --out go with --hf")
    names = models.names()
    width = max(map(len, names), default=0)
    for n in names:
        print(f"{n.ljust(width)}  {models.describe(n)}")
    return 0


def _hf_models(args) -> int:
    every = hf_zoo.architectures()
    archs = every if not args.arch else [a.strip() for a in args.arch.split(",") if a.strip()]
    unknown = [a for a in archs if a not in every]
    if unknown:
        raise BadInput(f"unknown transformers architecture(s) {', '.join(unknown)}: `ttbench models --hf` lists them")
    if args.out and not args.check:
        raise BadInput("--out writes a census: give --check too")
    if args.check:
        def progress(done, total, row):
            print(f"[{done}/{total}] hf/{row['arch']}: {row['status']}"
                  + (f" ({row['reason']})" if row["reason"] else ""), file=sys.stderr, flush=True)
        data = hf_zoo.census(archs, progress)
        if args.out:
            write_text_atomic(args.out, json.dumps(data, indent=1) + "\n")
        rows = {r["arch"]: r for r in data["rows"]}
        source = f"checked now (transformers {data['transformers']})"
    else:
        data = hf_zoo.recorded_census()
        rows = {r["arch"]: r for r in data["rows"]} if data else {}
        source = (f"from the recorded census (transformers {data['transformers']}): docs/hf_zoo.json" if data else
                  "not checked under this transformers: `ttbench models --hf --check` builds and runs each")
    width = max(map(len, archs), default=0) + len(hf_zoo.PREFIX)
    for arch in archs:
        row = rows.get(arch)
        status = "not checked" if row is None else row["status"] + (f": {row['reason']}" if row["reason"] else "")
        print(f"{(hf_zoo.PREFIX + arch).ljust(width)}  {status}")
    ok = sum(1 for a in archs if rows.get(a, {}).get("status") == "ok")
    print(f"{len(archs)} architectures; {ok} build and run eagerly ({source})")
    return 0


def cmd_explore(args) -> int:
    """Serve one stage of an export folder written with --explorer in Model Explorer until Ctrl+C."""
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
    text, ok = report()
    print(text)
    return 0 if ok else 1


# subcommand -> what runs it (argparse puts the subcommand's name in args.command)
COMMANDS = {"bringup": cmd_bringup, "diff": cmd_diff, "sweep": cmd_sweep, "track": cmd_track,
            "history": cmd_history,
            "conformance": cmd_conformance, "models": cmd_models, "explore": cmd_explore, "doctor": cmd_doctor}
