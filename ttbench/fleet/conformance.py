"""ONNX conformance: ONNX's own backend node tests through ttbench, and through torch-mlir's bare path beside it.

The tests are generated offline by onnx's case generators (`onnx.backend.test.case.node.collect_testcases`: the
package ships the generators, not the data). Each test's model goes
    ttbench:   onnx -> torchfx -> stablehlo -> CPU (against the test's expected outputs) -> ttir/ttnn (compile-only)
    bare:      torch-mlir's import tool's preparation (shape inference with data propagation), its ONNX importer,
               the same pass pipelines, the same CPU executor
so the table shows, per ONNX op, what ttbench brings up and that it loses nothing the compiler can do.

Tests run in worker processes (`python -m ttbench.fleet.conformance worker`, one test name per line on stdin, one JSON
row per line on stdout), each test under a timeout: a test that hangs or crashes its worker is a row saying so,
and the worker is replaced.
"""
from __future__ import annotations

import warnings
import json
import os
import select
import subprocess
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..core import BadInput
from ..io.atomic import write_text_atomic
from ..proc.children import ContainedFailure, call_in_fork, spawn_options, watch_parent
from ..proc.client import describe_exit, shared_client
from ..stages.stablehlo import ONNX_TO_BACKEND, TO_STABLEHLO
from . import executors

TEST_TIMEOUT_S = 180.0
ROW_MARK = "@@ttbench-conformance@@ "  # result lines; anything else a worker prints is not a result
# A fixed sample for `make test`: common ops that pass, ops that fail in the compilers, ops ttbench refuses.
SAMPLE = (
    "test_abs", "test_add", "test_add_bcast", "test_argmax_default_axis_example", "test_averagepool_2d_default",
    "test_cast_FLOAT_to_DOUBLE", "test_clip", "test_concat_2d_axis_0", "test_constant", "test_conv_with_strides_padding",
    "test_cos", "test_cumsum_1d", "test_div", "test_einsum_batch_matmul", "test_erf", "test_exp", "test_expand_dim_changed",
    "test_flatten_axis1", "test_gather_0", "test_gemm_default_no_bias", "test_globalaveragepool", "test_gelu_default_1",
    "test_hardswish", "test_identity", "test_layer_normalization_2d_axis0", "test_leakyrelu", "test_matmul_2d",
    "test_maxpool_2d_default", "test_mul", "test_neg", "test_pow", "test_reduce_mean_default_axes_keepdims_example",
    "test_relu", "test_reshape_reordered_all_dims", "test_resize_upsample_scales_nearest", "test_sigmoid",
    "test_slice", "test_softmax_axis_1", "test_sqrt", "test_tanh", "test_transpose_default", "test_where_example",
    "test_sequence_insert_at_back", "test_string_concat", "test_add_uint16",
)


def collect(names=None, ops=None) -> "OrderedDict[str, object]":
    """name -> onnx TestCase for the node tests (all, the named ones, or those of the given ONNX ops)."""
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings(), np.errstate(all="ignore"):  # the generators divide by zero on purpose
        warnings.simplefilter("ignore")
        cases = OrderedDict((c.name, c) for c in collect_testcases(None))
    if names:
        unknown = [n for n in names if n not in cases]
        if unknown:
            raise BadInput(f"unknown ONNX node test(s) {', '.join(unknown[:5])}: names look like test_abs")
        return OrderedDict((n, cases[n]) for n in names)
    if ops:
        wanted = {o.lower() for o in ops}
        picked = OrderedDict((n, c) for n, c in cases.items() if op_of(c, cases).lower() in wanted)
        if not picked:
            raise BadInput(f"no ONNX node tests for op(s) {', '.join(ops)}")
        return picked
    return cases


def op_of(case, cases: dict) -> str:
    """The ONNX op a node test is about (an `_expanded` test is its function's body: the op of its unexpanded
    twin)."""
    if case.name.endswith("_expanded") and case.name[:-len("_expanded")] in cases:
        return op_of(cases[case.name[:-len("_expanded")]], cases)
    nodes = case.model.graph.node
    return nodes[0].op_type if len(nodes) == 1 else (nodes[-1].op_type if nodes else "?")


def matches(actual, expected, rtol: float, atol: float):
    """None when `actual` is what ONNX's backend test accepts for `expected` (allclose with the test's
    tolerances for floats, equality otherwise); else what differs."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return f"shape {list(actual.shape)}, expected {list(expected.shape)}"
    if actual.dtype != expected.dtype:
        return f"element type {actual.dtype}, expected {expected.dtype}"
    if expected.dtype.kind in "fc":
        if np.allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True):
            return None
        with np.errstate(invalid="ignore"):
            worst = float(np.nanmax(np.abs(actual.astype(np.float64) - expected.astype(np.float64))))
        return f"values differ (max abs error {worst:.3g}, rtol {rtol:g}, atol {atol:g})"
    return None if np.array_equal(actual, expected) else "values differ"


def _compare_outputs(arrays, expected, case):
    if len(arrays) != len(expected):
        return f"{len(arrays)} output(s), the test expects {len(expected)}"
    for i, (a, e) in enumerate(zip(arrays, expected)):
        wrong = matches(a, e, case.rtol, case.atol)
        if wrong:
            return f"output {i}: {wrong}"
    return None


def data_set(case) -> tuple:
    """The test's first data set as numpy arrays (some tests keep theirs as TensorProto: cast, bfloat16, ...)."""
    from onnx import TensorProto, numpy_helper

    inputs, expected = case.data_sets[0]
    arrays = [[numpy_helper.to_array(v) if isinstance(v, TensorProto) else v for v in values]
              for values in (inputs, expected)]
    return arrays[0], arrays[1]


def _first_line(text: str, limit: int = 240) -> str:
    return (str(text).strip().splitlines() or [""])[0][:limit]


def through_ttbench(case, tt: bool) -> dict:
    """{"reached": last stage ok, "cpu": "match"|"mismatch"|"error"|None, "tt": "ttnn"|"failed"|None, "error"}."""
    from ..pipeline import bringup  # lazy: imports torch (~2.5 s)

    inputs, expected = data_set(case)
    row = {"reached": None, "cpu": None, "tt": None, "error": None}
    try:
        b = bringup(case.model, list(inputs), tt=tt, name=case.name)
    except BadInput as exc:
        row["error"] = f"refused: {_first_line(exc)}"
        return row
    for name, stage in b.stages.items():
        if name in ("ttir", "ttnn"):
            continue
        if not stage.ok:
            row["error"] = _first_line(stage.error)
            break
        row["reached"] = name
    if row["reached"] == "stablehlo":
        result = b.run("stablehlo", "cpu", expected=list(expected), timeout=TEST_TIMEOUT_S)
        wrong = _compare_outputs(result.arrays, list(expected), case) if result.arrays else _first_line(result.message)
        row["cpu"] = "match" if wrong is None else ("mismatch" if result.arrays else "error")
        row["error"] = None if wrong is None else f"cpu: {wrong}"
    if tt and "ttnn" in b.stages and b.stages["stablehlo"].ok:
        row["tt"] = "ttnn" if b.stages["ttnn"].ok else "failed"
        if not b.stages["ttnn"].ok and row["error"] is None:
            row["error"] = _first_line(b.stages["ttir"].error)
    return row


def through_bare_torch_mlir(case) -> dict:
    """The same test the way torch-mlir's own tools take it: `python -m torch_mlir.tools.import_onnx` (shape
    inference with data propagation, then the importer), the pass pipelines ttbench runs, the same CPU executor;
    arguments fed in graph-input order, the function renamed to @main so that the executor finds it. The import
    and the passes run in a forked copy: torch-mlir aborts the process on some types."""
    from ..run.whole import pjrt_text, run_text_on_device  # lazy: imports torch (~2.5 s)

    inputs, expected = data_set(case)
    row = {"reached": None, "cpu": None, "error": None}
    try:
        row["reached"], text, error = call_in_fork(lambda: _bare_lowering(case.model), TEST_TIMEOUT_S,
                                                   "torch-mlir")
    except ContainedFailure as exc:
        row["error"] = str(exc)
        return row
    if error:
        row["error"] = error
        return row
    if any(np.asarray(x).dtype == object for x in inputs):
        row["cpu"], row["error"] = "error", "cpu: inputs that are not tensors"
        return row
    try:
        reply = run_text_on_device(shared_client("cpu"), pjrt_text(text), [np.asarray(x) for x in inputs],
                                   TEST_TIMEOUT_S)
    except Exception as exc:  # noqa: BLE001
        reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    if not reply.get("ok"):
        row["cpu"], row["error"] = "error", f"cpu: {_first_line(reply.get('error'))}"
        return row
    wrong = _compare_outputs(reply["arrays"], list(expected), case)
    row["cpu"] = "match" if wrong is None else "mismatch"
    row["error"] = None if wrong is None else f"cpu: {wrong}"
    return row


def _bare_lowering(model) -> tuple:
    """-> (last stage reached, StableHLO text or None, error or None)."""
    import onnx
    from torch_mlir import ir
    from torch_mlir._mlir_libs import _stablehlo
    from torch_mlir.dialects import torch as torch_d
    from torch_mlir.extras import onnx_importer
    from torch_mlir.passmanager import PassManager

    reached = None
    try:
        model = onnx.shape_inference.infer_shapes(model, data_prop=True)
        context = ir.Context()
        torch_d.register_dialect(context)
        _stablehlo.register_dialect(context)
        info = onnx_importer.ModelInfo(model, config=onnx_importer.Config())
        module = info.create_module(context=context)
        onnx_importer.NodeImporter.define_function(info.main_graph, module.operation).import_all()
        module.operation.verify()
        with context:  # the function is named after the graph; PJRT runs @main (the executor's need, not a fix)
            for op in module.body.operations:
                if op.operation.name == "func.func":
                    op.operation.attributes["sym_name"] = ir.StringAttr.get("main")
        reached = "torchfx"
        with context:
            PassManager.parse(ONNX_TO_BACKEND).run(module.operation)
            PassManager.parse(TO_STABLEHLO).run(module.operation)
    except Exception as exc:  # noqa: BLE001 - whatever the bare path raises is its result
        return reached, None, _first_line(f"{type(exc).__name__}: {exc}")
    return "stablehlo", module.operation.get_asm(enable_debug_info=False), None


def run_case(case, cases: dict, tt: bool) -> dict:
    t0 = time.perf_counter()
    row = {"test": case.name, "op": op_of(case, cases)}
    for path, fn in (("ttbench", lambda: through_ttbench(case, tt)), ("bare", lambda: through_bare_torch_mlir(case))):
        try:
            row[path] = fn()
        except Exception as exc:  # noqa: BLE001 - ttbench's own bug: said as such, the run goes on
            row[path] = {"reached": None, "cpu": None, "tt": None,
                         "error": f"internal error in ttbench: {type(exc).__name__}: {_first_line(exc)}"}
    row["seconds"] = round(time.perf_counter() - t0, 2)
    return row


def worker_main() -> int:
    """One test name per line on stdin -> one ROW_MARK JSON line per test on stdout."""
    watch_parent()
    warnings.filterwarnings("ignore")
    cases = collect()
    print(ROW_MARK + json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        name = line.strip()
        if name:
            print(ROW_MARK + json.dumps(run_case(cases[name], cases, tt=os.environ.get("TTBENCH_CONFORMANCE_TT") == "1")),
                  flush=True)
    return 0


class _Worker:
    """A `python -m ttbench.fleet.conformance worker` child; ask() runs one test under a timeout."""

    def __init__(self, tt: bool):
        self.log = tempfile.TemporaryFile(mode="w+")  # its stderr: the last line explains a crash
        env = {**os.environ, "TTBENCH_CONFORMANCE_TT": "1" if tt else "0"}
        self.proc = subprocess.Popen([sys.executable, "-m", "ttbench.fleet.conformance", "worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.log, text=True, bufsize=1,
                                     **spawn_options(env))
        self.ready = False

    def _read_row(self, deadline: float):
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return "timeout", None
            readable, _, _ = select.select([self.proc.stdout], [], [], min(left, 1.0))
            if not readable:
                if self.proc.poll() is not None:
                    return "died", None
                continue
            line = self.proc.stdout.readline()
            if not line:
                self.proc.wait()
                return "died", None
            if line.startswith(ROW_MARK):
                return "ok", json.loads(line[len(ROW_MARK):])

    def ask(self, name: str, timeout: float):
        if not self.ready:  # the worker collects the test cases first (~5 s)
            status, _ = self._read_row(time.monotonic() + 120)
            if status != "ok":
                return status, None
            self.ready = True
        self.proc.stdin.write(name + "\n")
        self.proc.stdin.flush()
        return self._read_row(time.monotonic() + timeout)

    def why(self) -> str:
        self.log.seek(0)
        tail = [l for l in self.log.read().splitlines() if l.strip()][-1:] or [""]
        code = self.proc.poll()
        return f"{describe_exit(code) if code is not None else 'stopped'}: {tail[0][:200]}"

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


CHUNK = 25  # tests per Ray task: one worker start (imports, ~5 s) is shared by that many tests


def run(names=None, ops=None, jobs: int = 2, tt: bool = True, timeout: float = TEST_TIMEOUT_S, progress=None,
        engine: str = None, address: str = None) -> list:
    """Rows for the chosen node tests (see collect), in test order. Here, `jobs` worker processes share the
    tests and stream rows as they finish; with engine="ray", chunks of CHUNK tests are Ray tasks (executors.py),
    each running this same loop with one worker on its node, and rows come back a chunk at a time."""
    if jobs < 1:
        raise BadInput(f"--jobs must be at least 1, got {jobs}")
    cases = collect(names, ops)
    engine = engine or ("ray" if os.environ.get("RAY_ADDRESS") else "local")
    if engine != "local":
        return _run_on_engine(list(cases), jobs, tt, timeout, progress, engine, address)
    todo = list(cases)
    lock, rows, done = threading.Lock(), {}, [0]

    def slot(_):
        worker = None
        try:
            while True:
                with lock:
                    if not todo:
                        return
                    name = todo.pop(0)
                worker = worker or _Worker(tt)
                status, row = worker.ask(name, timeout)
                if status != "ok":
                    failure = (f"timed out after {timeout:g} s" if status == "timeout"
                               else f"the worker died ({worker.why()})")
                    row = {"test": name, "op": op_of(cases[name], cases),
                           "ttbench": {"reached": None, "cpu": None, "tt": None, "error": failure},
                           "bare": {"reached": None, "cpu": None, "error": "not run"}, "seconds": None}
                    worker.close()
                    worker = None
                with lock:
                    rows[name] = row
                    done[0] += 1
                    if progress:
                        progress(done[0], len(cases), row)
        finally:
            if worker is not None:
                worker.close()

    with ThreadPoolExecutor(max_workers=min(jobs, len(cases))) as pool:
        list(pool.map(slot, range(min(jobs, len(cases)))))
    return [rows[n] for n in cases]


def run_chunk(names: list, tt: bool, timeout: float) -> dict:
    """One engine job: these tests with one worker (crashes and hangs stay rows, as above)."""
    return {"rows": run(names, jobs=1, tt=tt, timeout=timeout)}


def _run_on_engine(names: list, jobs: int, tt: bool, timeout: float, progress, engine: str, address) -> list:
    runner = executors.engine(engine, jobs, address)
    chunks = [names[i:i + CHUNK] for i in range(0, len(names), CHUNK)]
    done = [0]

    def finished(_, result):
        for row in result.get("rows") or []:
            done[0] += 1
            if progress:
                progress(done[0], len(names), row)

    try:
        results = runner.run([executors.Job(run_chunk, (chunk, tt, timeout), timeout * len(chunk))
                              for chunk in chunks], finished)
    finally:
        runner.close()
    rows = {r["test"]: r for result in results for r in result.get("rows") or []}
    lost = [n for n in names if n not in rows]  # a chunk the engine lost: each of its tests says so
    for result, chunk in zip(results, chunks):
        for name in chunk:
            if name in lost:
                rows[name] = {"test": name, "op": "?", "seconds": None,
                              "ttbench": {"reached": None, "cpu": None, "tt": None,
                                          "error": result.get("error") or "lost by the engine"},
                              "bare": {"reached": None, "cpu": None, "error": "not run"}}
    return [rows[n] for n in names]


def passed(path_row: dict) -> bool:
    return path_row.get("cpu") == "match"


def by_op(rows: list) -> list:
    """One summary per ONNX op: tests, how many pass on the CPU through ttbench and bare torch-mlir, how many
    reach stablehlo and ttnn, and the first error."""
    ops = OrderedDict()
    for row in rows:
        ops.setdefault(row["op"], []).append(row)
    out = []
    for op, tests in sorted(ops.items(), key=lambda kv: kv[0].lower()):
        tb = [t["ttbench"] for t in tests]
        first_error = next((f"{t['test']}: {t['ttbench']['error']}" for t in tests if t["ttbench"].get("error")), "")
        out.append({"op": op, "tests": len(tests), "passed": sum(map(passed, tb)),
                    "stablehlo": sum(r.get("reached") == "stablehlo" for r in tb),
                    "ttnn": sum(r.get("tt") == "ttnn" for r in tb),
                    "bare_passed": sum(passed(t["bare"]) for t in tests), "first_error": first_error})
    return out


def totals(rows: list) -> dict:
    return {"tests": len(rows), "ops": len({r["op"] for r in rows}),
            "passed": sum(passed(r["ttbench"]) for r in rows),
            "stablehlo": sum(r["ttbench"].get("reached") == "stablehlo" for r in rows),
            "ttnn": sum(r["ttbench"].get("tt") == "ttnn" for r in rows),
            "bare_passed": sum(passed(r["bare"]) for r in rows),
            "only_ttbench": sum(passed(r["ttbench"]) and not passed(r["bare"]) for r in rows),
            "only_bare": sum(passed(r["bare"]) and not passed(r["ttbench"]) for r in rows)}


def markdown(rows: list, seconds: float = None, tt: bool = True) -> str:
    import onnx

    t = totals(rows)
    lines = ["# ONNX conformance", "",
             f"ONNX {onnx.__version__} backend node tests (generated by `onnx.backend.test.case.node`), through "
             f"ttbench ({'with' if tt else 'without'} the Tenstorrent compile-only stages) and through torch-mlir's "
             f"bare import path. Regenerate with `make conformance`"
             + (f" ({seconds / 60:.0f} min here)." if seconds else "."), "",
             f"- tests: {t['tests']} over {t['ops']} ops",
             f"- pass on the CPU through ttbench (outputs match the test's expected ones): **{t['passed']}**",
             f"- pass through torch-mlir's bare path: **{t['bare_passed']}** "
             f"(ttbench passes {t['only_ttbench']} that the bare path does not; the bare path passes "
             f"{t['only_bare']} that ttbench does not)",
             f"- reach stablehlo through ttbench: {t['stablehlo']}",
             f"- compile to ttnn (compile-only): {t['ttnn']}" if tt else "- ttnn: not run", "",
             "| op | tests | pass (ttbench) | pass (bare torch-mlir) | reach stablehlo | ttnn | first error |",
             "|---|---|---|---|---|---|---|"]
    for r in by_op(rows):
        err = r["first_error"].replace("|", "\\|").replace("\n", " ")
        lines.append(f"| {r['op']} | {r['tests']} | {r['passed']} | {r['bare_passed']} | {r['stablehlo']} | "
                     f"{r['ttnn'] if tt else '-'} | {err} |")
    return "\n".join(lines) + "\n"


def write(rows: list, out_dir: str, seconds: float = None, tt: bool = True) -> list:
    """onnx_conformance.md and onnx_conformance.json in `out_dir` (written atomically)."""
    if not os.path.isdir(out_dir):
        raise BadInput(f"--out {out_dir} is not a folder")
    md = write_text_atomic(os.path.join(out_dir, "onnx_conformance.md"), markdown(rows, seconds, tt))
    data = {"totals": totals(rows), "seconds": seconds, "tt": tt, "ops": by_op(rows), "tests": rows}
    js = write_text_atomic(os.path.join(out_dir, "onnx_conformance.json"), json.dumps(data, indent=1) + "\n")
    return [md, js]


if __name__ == "__main__" and sys.argv[1:2] == ["worker"]:
    sys.exit(worker_main())
