"""The conformance table's "bare" column: an ONNX test the way a user without ttbench takes it, with the upstream
tools only. Never imported by ttbench: it runs as a script, so nothing of ttbench's (its importer preparation, its
rewrites of the StableHLO, its executor) can make this column pass or fail.

    python bare_route.py PROC_DIR TIMEOUT_S      then one test folder per line on stdin

Each folder holds model.onnx and inputs.npz; each test, in a forked copy (torch-mlir aborts the process on some
element types), goes
    torch-mlir's import tool (`python -m torch_mlir.tools.import_onnx`: shape inference with data propagation, the
    importer, the verifier) -> torch-mlir's own pipelines `torch-onnx-to-torch-backend-pipeline` and
    `torch-backend-to-stablehlo-backend-pipeline` -> jaxlib's PJRT CPU client (the function renamed @main, which PJRT
    runs; the text as printed, or where jaxlib cannot read that, a portable artifact at jaxlib's StableHLO version)
and leaves result.json ({"reached", "error"}) and outputs.npz in its folder; a line "done FOLDER" follows on stdout.
PROC_DIR is ttbench/proc, for three plain modules: array_files (how arrays of every element type travel between
processes), fork_each and parent_watch.
"""
import json
import os
import sys

import numpy as np
from torch_mlir import ir
from torch_mlir._mlir_libs import _stablehlo
from torch_mlir.dialects import torch as torch_dialect
from torch_mlir.passmanager import PassManager
from torch_mlir.tools.import_onnx import __main__ as import_onnx

PIPELINE = "builtin.module(torch-onnx-to-torch-backend-pipeline, torch-backend-to-stablehlo-backend-pipeline)"


def _first_line(exc: BaseException) -> str:
    """The error in one line; for MLIR's "Failure while executing pass pipeline:" the first diagnostic under it."""
    lines = [line.strip() for line in f"{type(exc).__name__}: {exc}".strip().splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].endswith(":"):
        return f"{lines[0]} {lines[1]}"[:240]
    return (lines or [""])[0][:240]


def lower(folder: str) -> tuple:
    """-> (stage reached, StableHLO text or None, error or None)."""
    torch_file = os.path.join(folder, "model.torch.mlir")
    try:
        import_onnx.main(import_onnx.parse_arguments([os.path.join(folder, "model.onnx"), "-o", torch_file]))
    except BaseException as exc:  # noqa: B902 - whatever the tool raises (SystemExit included) is the result
        return None, None, _first_line(exc)
    try:
        context = ir.Context()
        torch_dialect.register_dialect(context)
        _stablehlo.register_dialect(context)
        with context:
            with open(torch_file) as f:
                module = ir.Module.parse(f.read())
            PassManager.parse(PIPELINE).run(module.operation)
            for op in module.body.operations:
                if op.operation.name == "func.func":
                    op.operation.attributes["sym_name"] = ir.StringAttr.get("main")
            return "stablehlo", module.operation.get_asm(enable_debug_info=False), None
    except Exception as exc:  # noqa: BLE001
        return "torchfx", None, _first_line(exc)


def run_test(folder: str) -> dict:
    from array_files import load_arrays, save_arrays

    reached, text, error = lower(folder)
    if error:
        return {"reached": reached, "error": error}
    try:
        import jax
        from jax._src import xla_bridge
        from jax._src.lib import _jax, xla_client
        from jax.extend import backend
        from jaxlib.mlir.dialects import stablehlo

        jax.config.update("jax_platforms", "cpu")
        jax.config.update("jax_enable_x64", True)  # int64 inputs would silently become int32
        # The CPU client is built into jaxlib. JAX would still load every installed PJRT plugin first (the
        # Tenstorrent one is installed beside it), which is no part of this route and only adds its runtime
        # unpacking race: a private flag of the pinned jax says discovery is done.
        xla_bridge._plugins_registered = True
        client = backend.get_backend("cpu")
        device = client.local_devices()[0]
        devices = _jax.DeviceList((device,))
        try:  # the text as torch-mlir printed it, as a user would hand it over first
            executable = client.compile_and_load(text, devices, xla_client.CompileOptions())
        except Exception as exc:  # noqa: BLE001 - then as a portable artifact, for a StableHLO newer than jaxlib's
            try:
                artifact = _stablehlo.serialize_portable_artifact_str(text, stablehlo.get_current_version())
            except Exception:  # noqa: BLE001 - no artifact either: the first error is the one to show
                raise exc from None
            executable = client.compile_and_load(artifact, devices, xla_client.CompileOptions())
        inputs = load_arrays(os.path.join(folder, "inputs.npz"), "in")
        results = executable.execute_sharded([jax.device_put(x, device) for x in inputs])
        outputs = [np.asarray(r[0]) for r in results.disassemble_into_single_device_arrays()]
    except Exception as exc:  # noqa: BLE001
        return {"reached": reached, "error": f"cpu: {_first_line(exc)}"}
    save_arrays(os.path.join(folder, "outputs.npz"), outputs, "out")
    return {"reached": reached, "error": None}


def _write(folder: str, result: dict) -> None:
    with open(os.path.join(folder, "result.json"), "w") as f:
        json.dump(result, f)


def main(argv: list) -> int:
    sys.path.insert(0, argv[0])
    from fork_each import in_fork
    from parent_watch import watch_parent

    watch_parent()
    timeout = float(argv[1])
    for line in sys.stdin:
        folder = line.strip()
        why = in_fork(lambda: _write(folder, run_test(folder)), timeout)
        if why is not None or not os.path.isfile(os.path.join(folder, "result.json")):
            _write(folder, {"reached": None, "error": why or "ended without a result"})
        print("done", folder, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
