"""The ONNX conformance sample (issue 15): ONNX's own node tests through ttbench and bare torch-mlir, checked
against the table committed from a full run (docs/onnx_conformance.json). A test that changes state means the
table is stale or something regressed: run `make conformance` and commit the result with the change."""
import json
import os

import pytest

from ttbench import conformance

TABLE = os.path.join(os.path.dirname(__file__), os.pardir, "docs", "onnx_conformance.json")


def _state(row: dict) -> dict:
    tb, bare = row["ttbench"], row["bare"]
    return {"passes": tb.get("cpu") == "match", "reached": tb.get("reached"), "ttnn": tb.get("tt") == "ttnn",
            "bare_passes": bare.get("cpu") == "match"}


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
    assert by_test["test_add_uint16"]["bare"]["error"] == "torch-mlir crashed (SIGABRT)"
    assert "crashed (SIGABRT)" in by_test["test_add_uint16"]["ttbench"]["error"]


def test_conformance_rejects_unknown_tests_before_running():
    with pytest.raises(conformance.BadInput, match="unknown ONNX node test"):
        conformance.run(["test_no_such_thing"])


def test_matches_follows_the_backend_tests_rules():
    import numpy as np

    a = np.array([1.0, 2.0], np.float32)
    assert conformance.matches(a, a + 1e-5, rtol=1e-3, atol=1e-7) is None
    assert "values differ" in conformance.matches(a, a + 1, rtol=1e-3, atol=1e-7)
    assert "element type float64" in conformance.matches(a.astype(np.float64), a, rtol=1e-3, atol=1e-7)
    assert "shape" in conformance.matches(a[:1], a, rtol=1e-3, atol=1e-7)
