"""ONNX conformance: ONNX's own backend node tests through ttbench, and through torch-mlir's bare path beside it.

The tests are generated offline by onnx's case generators (`onnx.backend.test.case.node.collect_testcases`: the
package ships the generators, not the data). Each test's model goes
    ttbench:   onnx -> torchfx -> stablehlo -> CPU (against the test's expected outputs) -> ttir/ttnn (compile-only)
    bare:      torch-mlir's import tool's preparation (shape inference with data propagation), its ONNX importer,
               the same pass pipelines, the same CPU executor
so the table shows, per ONNX op, what ttbench brings up and that it loses nothing the compiler can do.

cases.py: the tests and one test through both routes; runner.py: worker processes, timeouts, engines;
report.py: the table.
"""
from .cases import SAMPLE, TEST_TIMEOUT_S, collect, matches, run_case
from .report import by_op, markdown, passed, totals, write
from .runner import run, run_chunk

__all__ = ["SAMPLE", "TEST_TIMEOUT_S", "collect", "matches", "run_case", "by_op", "markdown", "passed", "totals",
           "write", "run", "run_chunk"]
