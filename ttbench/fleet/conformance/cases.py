"""The conformance cases: ONNX's backend node tests generated offline, and one test through both routes (ttbench, and
torch-mlir's bare path) against the test's expected outputs."""
from __future__ import annotations

import atexit
import json
import os
import select
import subprocess
import sys
import time
import warnings
from collections import OrderedDict

import numpy as np

from ...compare.values import onnx_backend_mismatch
from ...core import PROGRAM_STAGES, BadInput, StageName
from ...proc import array_files
from ...proc.array_files import load_arrays, save_arrays
from ...proc.children import kill_group, start
from ...proc.scratch import temp_folder


TEST_TIMEOUT_S = 180.0  # per test; a test that hangs longer is a row saying so

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


def _compare_outputs(arrays, expected, case):
    if len(arrays) != len(expected):
        return f"{len(arrays)} output(s), the test expects {len(expected)}"
    for i, (a, e) in enumerate(zip(arrays, expected)):
        wrong = onnx_backend_mismatch(a, e, case.rtol, case.atol)
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
    from ...pipeline import bringup  # lazy: imports torch (~2.5 s)

    inputs, expected = data_set(case)
    row = {"reached": None, "cpu": None, "tt": None, "error": None}
    try:
        b = bringup(case.model, list(inputs), tt=tt, name=case.name)
    except BadInput as exc:
        row["error"] = f"refused: {_first_line(exc)}"
        return row
    for name, stage in b.stages.items():
        if name in PROGRAM_STAGES:
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
    if tt and StageName.TTNN in b.stages and b.stages[StageName.STABLEHLO].ok:
        row["tt"] = "ttnn" if b.stages[StageName.TTNN].ok else "failed"
        if not b.stages[StageName.TTNN].ok and row["error"] is None:
            row["error"] = _first_line(b.stages[StageName.TTIR].error)
    return row


def through_bare_torch_mlir(case) -> dict:
    """The same test the way a user without ttbench takes it: bare_route.py (torch-mlir's import tool and its own
    pipelines, then jaxlib's PJRT CPU client), in a process of its own that imports nothing of ttbench."""
    inputs, expected = data_set(case)
    if any(np.asarray(x).dtype == object for x in inputs):
        return {"reached": None, "cpu": "error", "error": "cpu: inputs that are not tensors"}
    with temp_folder("ttbench-bare-") as folder:
        with open(os.path.join(folder, "model.onnx"), "wb") as f:
            f.write(case.model.SerializeToString())
        save_arrays(os.path.join(folder, "inputs.npz"), [np.asarray(x) for x in inputs], "in")
        result = _BARE.run(folder)
        row = {"reached": result.get("reached"), "cpu": None, "error": result.get("error")}
        if row["error"] is None:
            wrong = _compare_outputs(load_arrays(os.path.join(folder, "outputs.npz"), "out"), list(expected), case)
            row["cpu"] = "match" if wrong is None else "mismatch"
            row["error"] = None if wrong is None else f"cpu: {wrong}"
        elif row["error"].startswith("cpu: "):
            row["cpu"] = "error"
    return row


class BareRoute:
    """This process's bare_route.py child, started on first use; a child that dies or stops answering is replaced
    by the next test's."""

    def __init__(self, timeout: float = TEST_TIMEOUT_S):
        self.timeout, self.process = timeout, None

    def run(self, folder: str) -> dict:
        if self.process is None or self.process.poll() is not None:
            proc_dir = os.path.dirname(os.path.abspath(array_files.__file__))
            self.process = start([sys.executable, BARE_ROUTE, proc_dir, str(self.timeout)], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            atexit.register(self.close)
        self.process.stdin.write(folder + "\n")
        self.process.stdin.flush()
        deadline = time.monotonic() + self.timeout + 60  # the child keeps its own per-test deadline
        while time.monotonic() < deadline and select.select([self.process.stdout], [], [],
                                                            max(0.0, deadline - time.monotonic()))[0]:
            line = self.process.stdout.readline()
            if not line:
                break
            if line.strip() == f"done {folder}":
                with open(os.path.join(folder, "result.json")) as f:
                    return json.load(f)  # our own child's
        self.close()
        return {"reached": None, "error": "the bare route's process ended or stopped answering"}

    def close(self) -> None:
        if self.process is not None:
            kill_group(self.process)
            self.process = None


BARE_ROUTE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bare_route.py")
_BARE = BareRoute()


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
