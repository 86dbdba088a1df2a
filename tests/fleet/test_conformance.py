"""The ONNX conformance sample (issue 15): ONNX's own node tests through ttbench and the bare route, checked
against the table committed from a full run (docs/onnx_conformance.json). A test that changes state means the
table is stale or something regressed: run `make conformance` and commit the result with the change."""
import json
import os

import pytest

from ttbench.compare.values import onnx_backend_mismatch
from ttbench.core import BadInput
from ttbench.fleet import conformance
from tests.paths import REPO

pytestmark = pytest.mark.subprocess  # the bare route runs as a script

TABLE = os.path.join(REPO, "docs", "onnx_conformance.json")


def _state(row: dict) -> dict:
    tb, bare = row["ttbench"], row["bare"]
    return {"passes": tb.get("cpu") == "match", "reached": tb.get("reached"), "ttnn": tb.get("tt") == "ttnn",
            "bare_passes": bare.get("cpu") == "match"}


@pytest.mark.tt  # its assertions need the Tenstorrent compiler's stages
def test_the_sample_passes_as_recorded_in_the_committed_table():
    with open(TABLE) as f:
        recorded = {row["test"]: row for row in json.load(f)["tests"]}
    rows = conformance.run(list(conformance.SAMPLE), jobs=2, tt=True)
    changed = {r["test"]: (_state(recorded[r["test"]]), _state(r)) for r in rows
               if _state(r) != _state(recorded[r["test"]])}
    assert not changed, f"recorded -> now: {changed}"
    by_test = {r["test"]: r for r in rows}
    assert sum(_state(r)["passes"] for r in rows) >= 30  # the sample is mostly ops that work
    # ttbench refuses what it cannot feed, with the reason, and never loses a test to a crash
    assert by_test["test_string_concat"]["ttbench"]["error"].startswith("refused: ONNX input 'x' has element type")
    # uint16 crashed torch-mlir through ttbench's own hand-assembled ONNX pipeline; torch-mlir's whole one, which
    # ttbench now runs and the bare route runs too, lowers it
    assert _state(by_test["test_add_uint16"]) == {"passes": True, "reached": "stablehlo", "ttnn": True,
                                                  "bare_passes": True}


def test_conformance_rejects_unknown_tests_before_running():
    with pytest.raises(BadInput, match="unknown ONNX node test"):
        conformance.run(["test_no_such_thing"])


def test_matches_follows_the_backend_tests_rules():
    import numpy as np

    a = np.array([1.0, 2.0], np.float32)
    assert onnx_backend_mismatch(a, a + 1e-5, rtol=1e-3, atol=1e-7) is None
    assert "values differ" in onnx_backend_mismatch(a, a + 1, rtol=1e-3, atol=1e-7)
    assert "element type float64" in onnx_backend_mismatch(a.astype(np.float64), a, rtol=1e-3, atol=1e-7)
    assert "shape" in onnx_backend_mismatch(a[:1], a, rtol=1e-3, atol=1e-7)


def test_conformance_runs_go_into_the_results_database_and_history_compares_them(tmp_path):
    import sqlite3
    import subprocess
    import sys

    db = tmp_path / "results.sqlite"
    for label in ("first", "second"):
        r = subprocess.run([sys.executable, "-m", "ttbench.cli", "conformance", "--tests", "test_abs,test_det_2d",
                            "--no-tt", "--db", str(db), "--label", label], capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT runs.label, runs.kind, model, status FROM jobs JOIN runs ON runs.id = run_id "
                           "ORDER BY runs.id, model").fetchall()  # appended as they finish
        recorded = [row for (row,) in con.execute("SELECT row FROM jobs")]
    assert rows == [("first", "conformance", "test_abs", "pass"), ("first", "conformance", "test_det_2d", "fail"),
                    ("second", "conformance", "test_abs", "pass"), ("second", "conformance", "test_det_2d", "fail")], \
        recorded  # a test that should pass says why it did not
    r = subprocess.run([sys.executable, "-m", "ttbench.cli", "history", "--db", str(db)], capture_output=True,
                       text=True)
    assert r.returncode == 0 and "no job changed" in r.stdout, r.stdout + r.stderr


def test_conformance_on_the_ray_engine_gives_the_same_rows():
    pytest.importorskip("ray", reason="pip install 'ttbench[ray]'")
    names = ["test_abs", "test_det_2d", "test_string_concat"]
    local = conformance.run(names, jobs=1, tt=False)
    ray = conformance.run(names, jobs=1, tt=False, engine="ray")
    assert [_state(r) for r in ray] == [_state(r) for r in local] and [r["test"] for r in ray] == names


def test_the_bare_route_imports_nothing_of_ttbench_and_takes_the_test_by_itself(tmp_path):
    """The "bare" column is what a user without ttbench gets: bare_route.py runs with ttbench made unimportable and
    still lowers and runs a test (the column used to go through ttbench's own rewrites and executor, so it failed
    exactly where ttbench failed)."""
    import subprocess
    import sys

    import numpy as np

    from ttbench.fleet.conformance import cases
    from ttbench.proc import array_files

    case = conformance.collect(["test_add"])["test_add"]
    inputs, expected = cases.data_set(case)
    (tmp_path / "model.onnx").write_bytes(case.model.SerializeToString())
    array_files.save_arrays(str(tmp_path / "inputs.npz"), [np.asarray(x) for x in inputs], "in")
    no_ttbench = ("import runpy, sys; sys.modules['ttbench'] = None; "  # any `import ttbench...` now fails
                  f"sys.argv = [{cases.BARE_ROUTE!r}, {os.path.dirname(array_files.__file__)!r}, '60']; "
                  f"runpy.run_path({cases.BARE_ROUTE!r}, run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", no_ttbench], input=f"{tmp_path}\n", capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == f"done {tmp_path}", done.stderr[-2000:]
    assert json.loads((tmp_path / "result.json").read_text()) == {"reached": "stablehlo", "error": None}
    outputs = array_files.load_arrays(str(tmp_path / "outputs.npz"), "out")
    assert onnx_backend_mismatch(outputs[0], expected[0], rtol=1e-3, atol=1e-7) is None


def test_an_onnx_model_with_a_local_function_keeps_its_helper_functions_apart():
    """test_mvn's model imports as @main plus a private function: ttbench renamed every function to @main
    ("redefinition of symbol named 'main'"), where the bare route passed (found by the bare column)."""
    from ttbench.fleet.conformance import cases

    row = cases.through_ttbench(conformance.collect(["test_mvn"])["test_mvn"], tt=False)
    assert row["cpu"] == "match", row
