"""Child-process entry for torch-mlir pass pipelines (see stages/mlir_stage.run_pipelines). Never imported by the
parent.

    python mlir_worker.py        then one line on stdin: {"in": IN.mlirbc, "out": OUT.mlirbc,
                                                       "pipelines": [[PIPELINE, DESCRIPTION], ...]}

The job comes on stdin so that the worker can be started (Python, torch_mlir) while the parent still captures the
graph. Exit 0: OUT holds the lowered module (bytecode, locations kept). Exit 3: a pipeline failed; stdout's last
line is "failed: DESCRIPTION", the diagnostics are on stderr. A crash (a signal) leaves stdout's last "running:"
line to say which pipeline it was in. It imports only torch_mlir (and its job runs once: one worker, one job).
"""
import os
import sys


def main(argv) -> int:
    import json

    from parent_watch import watch_parent  # beside this script (see parent_watch.py)

    watch_parent()
    from torch_mlir import ir
    from torch_mlir._mlir_libs import _stablehlo
    from torch_mlir.dialects import torch as torch_d
    from torch_mlir.passmanager import PassManager

    context = ir.Context()
    torch_d.register_dialect(context)
    _stablehlo.register_dialect(context)
    line = sys.stdin.readline()
    if not line.strip():
        return 0  # a spare worker that was never given a job
    job = json.loads(line)
    source, out = job["in"], job["out"]
    with context:
        context.emit_error_diagnostics = True  # passes that emit errors without failing would otherwise assert
        with open(source, "rb") as f:
            module = ir.Module.parse(f.read())
        for pipeline, description in job["pipelines"]:
            print(f"running: {description}", flush=True)
            try:
                PassManager.parse(pipeline).run(module.operation)
            except Exception as exc:  # the diagnostics were printed to stderr by MLIR; the summary follows them
                print(f"{description} failed: {exc}", file=sys.stderr, flush=True)
                print(f"failed: {description}", flush=True)
                return 3
        with open(out, "wb") as f:
            f.write(module.operation.get_asm(enable_debug_info=True, binary=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
