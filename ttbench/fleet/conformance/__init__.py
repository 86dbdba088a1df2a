"""ONNX conformance: ONNX's own backend node tests through ttbench, and through torch-mlir's bare path beside it.

The tests are generated offline by onnx's case generators (`onnx.backend.test.case.node.collect_testcases`: the
package ships the generators, not the data). Each test's model goes
    ttbench:   onnx -> torchfx -> stablehlo -> CPU (against the test's expected outputs) -> ttir/ttnn (compile-only)
    bare:      the route a user without ttbench takes (bare_route.py, a script that imports nothing of ttbench):
               torch-mlir's ONNX import tool, its own pass pipelines, jaxlib's PJRT CPU client
so the table shows, per ONNX op, what ttbench brings up and whether it loses anything the compilers can do.

cases.py: the tests and one test through both routes (bare_route.py: the bare one's script); runner.py: worker processes, timeouts, engines;
report.py: the table.
"""
from .cases import SAMPLE, TEST_TIMEOUT_S, collect, run_case
from .report import by_op, markdown, passed, totals, write
from .runner import run, run_chunk

__all__ = ["SAMPLE", "TEST_TIMEOUT_S", "collect", "run_case", "by_op", "markdown", "passed", "totals",
           "write", "run", "run_chunk"]
