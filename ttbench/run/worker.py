"""The device worker: a child process that lowers one-op FX graphs and runs StableHLO on a PJRT device.

Run as `python -m ttbench.run.worker DEVICE`. Requests arrive as JSON lines on stdin; each reply is one JSON
line on the protocol stream (the original stdout). Native libraries may print to fd 1, so fd 1 is pointed at
stderr and only the protocol stream carries replies. A native abort or hang kills only this process; the parent
reports it as that request's error and starts a fresh worker.

  {"kind": "lower", "spec": PATH, "out": PATH}          one-op spec (pickle) -> StableHLO text
  {"kind": "lower_onnx", "model": PATH, "out": PATH}    one-node ONNX model -> StableHLO text
  {"kind": "run", "module": PATH, "inputs": PATH, "outputs": PATH, "keep": BOOL}   StableHLO text + npz inputs ->
        npz outputs; keep: the executable is kept for the next run of the same text (chained op by op)
  {"kind": "lower_many", "unit_kind": "lower" | "lower_onnx", "paths": [PATH], "outs": [PATH]}
        units imported alone, lowered by one pipeline run (unit_batch.gather); a reply per unit
  {"kind": "warm"}                                      import what lowering needs, before the first unit
  {"kind": "run_many", "modules": [PATH], "inputs": PATH, "outputs": PATH}   one-op programs compiled as one
        (unit_batch.py) and run once; inputs and outputs in unit order; the reply gives each unit's output count

Fault injection, for testing that a crash or hang stays a row: TTBENCH_WORKER_FAULT=abort:OP or hang:OP makes
the worker abort or hang when asked to lower OP (e.g. aten.gelu.default).
"""
from __future__ import annotations

import os
import pickle
import sys
import time

from ..core import ArgInfo, Role
from ..proc.array_files import load_arrays, save_arrays
from ..proc.children import watch_parent
from ..proc.line_protocol import serve
from ..stages.mlir_stage import full_text
from ..stages.stablehlo import lowered_module
from ..stages.torchfx import fx_module, onnx_module
from ..tt.plugin import plugin_lock
from .unit_batch import alone, gather, one_program

# Below the parent's start timeout (proc/client.py), so a long wait is reported as such, not as a dead worker.
START_LOCK_TIMEOUT_S = 100.0


class Runner:
    """Compiles and executes StableHLO on one PJRT device through jaxlib's client."""
    KEPT_EXECUTABLES = 256  # one-op programs: small

    def __init__(self, device: str):
        import jax

        # Only this platform: JAX initialises every plugin it finds otherwise (and the TT one aborts without chips).
        jax.config.update("jax_platforms", device)
        jax.config.update("jax_enable_x64", True)  # int64 inputs would silently become int32
        from jaxlib.mlir.dialects import stablehlo

        self.jax = jax
        self.client = _backend(device)
        self.device = self.client.local_devices()[0]
        self.version = stablehlo.get_current_version()
        self.kept: dict = {}  # StableHLO text -> executable, for runs that ask to keep it

    def run(self, text: str, inputs: list, keep: bool = False) -> tuple:
        """-> (outputs as numpy arrays, compile seconds, run seconds). `keep`: the executable is kept for the
        next run of the same text (chained op by op runs one op's program once per occurrence); compile
        seconds is then 0 for a kept one."""
        import numpy as np
        from jax._src.lib import _jax, xla_client
        from torch_mlir._mlir_libs import _stablehlo

        t0 = time.perf_counter()
        executable = self.kept.pop(text, None)
        if executable is None:
            # torch-mlir writes a newer StableHLO than jaxlib reads: hand it over as a portable artifact at the
            # consumer's version.
            artifact = _stablehlo.serialize_portable_artifact_str(text, self.version)
            t0 = time.perf_counter()
            executable = self.client.compile_and_load(artifact, _jax.DeviceList((self.device,)),
                                                      xla_client.CompileOptions())
        if keep:
            self.kept[text] = executable  # most recently used last
            while len(self.kept) > self.KEPT_EXECUTABLES:
                self.kept.pop(next(iter(self.kept)))
        t1 = time.perf_counter()
        buffers = [self.jax.device_put(x, self.device) for x in inputs]
        results = executable.execute_sharded(buffers).disassemble_into_single_device_arrays()
        outputs = [np.asarray(r[0]) for r in results]
        return outputs, t1 - t0, time.perf_counter() - t1


def _backend(device: str):
    """The PJRT client for `device`, without loading the Tenstorrent plugin where it is not needed.

    JAX loads every installed plugin library when it makes its first backend, whatever `jax_platforms` says. The TT
    plugin unpacks its runtime into one fixed /tmp folder on each load, and simultaneous loads fail ("failed to
    extract embedded tt-metal runtime archive") and can leave the process hung in its next compile (3 of 4
    simultaneous worker starts failed here). The CPU client is built into jaxlib, so the CPU worker skips plugin
    discovery; other devices need it and load under the machine-wide plugin lock.
    """
    from jax._src import xla_bridge
    from jax.extend import backend

    if device == "cpu" and hasattr(xla_bridge, "_plugins_registered"):
        xla_bridge._plugins_registered = True  # private flag of the pinned jax: "discovery already done"
        return backend.get_backend(device)
    with plugin_lock(START_LOCK_TIMEOUT_S) as locked:
        if not locked:
            raise RuntimeError("waited too long for a Tenstorrent compile to finish before loading the plugins")
        return backend.get_backend(device)


class Lowering:
    """One-op units -> StableHLO text, in this (contained) process: no pass worker, no import fork, no Stage; one
    MLIR context for many units (making one costs ~5 ms, a unit's whole lowering ~20 ms), renewed now and then so
    that what it interns stays small."""
    UNITS_PER_CONTEXT = 256

    def __init__(self):
        self.context, self.used = None, 0

    def _context(self, units: int = 1):
        """The context for the next `units` units (all in one: a batch's modules are gathered into one)."""
        from ..stages.torchfx import new_context  # lazy: torch and the frontends load per request kind

        if self.context is None or self.used + units > self.UNITS_PER_CONTEXT:
            self.context, self.used = new_context(), 0
        self.used += units
        return self.context

    def fx(self, spec_path: str) -> str:
        """A one-op spec -> the StableHLO text of a function computing just that op."""
        return _lowered_text(self._fx_module(spec_path, self._context()), onnx=False)

    def onnx(self, model_path: str) -> str:
        """A one-node ONNX model (see onnx_nodes.py) -> the StableHLO text of a function computing just that node."""
        return _lowered_text(self._onnx_module(model_path, self._context()), onnx=True)

    def many(self, kind: str, paths: list, outs: list) -> dict:
        """Units of one kind ("lower": FX specs, "lower_onnx": one-node models) imported alone, lowered together
        (unit_batch.gather: one pipeline run), each written to its `outs` path. -> {"ok": True, "units": [a
        lower reply per unit]}; {"ok": False, ...} when the units did not lower together (the parent then
        lowers each alone, for its own verdict)."""
        importer = self._fx_module if kind == "lower" else self._onnx_module
        context = self._context(len(paths))
        modules, replies = [], []
        for path in paths:
            try:
                modules.append(importer(path, context))
                replies.append({"ok": True, "stage": "stablehlo"})
            except Exception as exc:
                replies.append(_not_imported(kind, exc))
        imported = [i for i, r in enumerate(replies) if r["ok"]]
        if imported:
            try:
                merged, _ = gather(modules, context, main_first=True)
                lowered = lowered_module(merged, onnx=kind == "lower_onnx", contained=True)
            except Exception as exc:
                return {"ok": False, "error": _one_line(exc)}
            for position, i in enumerate(imported):
                with open(outs[i], "w") as f:
                    f.write(full_text(alone(lowered, position, main_first=True)))
        return {"ok": True, "units": replies}

    def _fx_module(self, spec_path: str, context):
        from ..stages.fx import FxCapture  # lazy: torch and the frontends load per request kind
        from .one_op import one_op_graph  # lazy: torch and the frontends load per request kind

        with open(spec_path, "rb") as f:
            spec = pickle.load(f)
        _inject_fault(spec["target"])
        gm = one_op_graph(spec)
        return fx_module(FxCapture(graph_module=gm, arguments=[], values=[], shown=gm), context)

    def _onnx_module(self, model_path: str, context):
        import onnx

        from ..stages.onnx import OnnxCapture  # lazy: torch and the frontends load per request kind
        proto = onnx.load(model_path)
        _inject_fault(proto.graph.node[0].op_type)
        arguments = [ArgInfo(i.name, Role.INPUT, (), "") for i in proto.graph.input]
        capture = OnnxCapture(model=proto, arguments=arguments, values=[None] * len(arguments))
        return onnx_module(capture, contained=True, context=context)


def _lowered_text(module, onnx: bool) -> str:
    try:
        lowered = lowered_module(module, onnx=onnx, contained=True)
    except Exception as exc:
        raise LoweringFailed(str(exc)) from None
    return full_text(lowered)


def _not_imported(kind: str, exc: BaseException) -> dict:
    """The reply for a unit that did not import: its own stage (fx or onnx) is as far as it got."""
    return {"ok": False, "stage": "fx" if kind == "lower" else "onnx", "error": _one_line(exc)}


def _warm_lowering() -> None:
    """Import what the first lowering needs (torch, the FX tracer, torch-mlir's importers: ~2 s). The op-by-op
    flow sends this ahead (WorkerClient.send_ahead), so that it overlaps the parent's recording of the golden."""
    from .one_op import one_op_graph  # noqa: F401  # lazy: warmed on request, not at start
    from ..stages.fx import FxCapture  # noqa: F401  # lazy: warmed on request, not at start
    from torch_mlir.extras.fx_importer import FxImporter  # noqa: F401
    from torch_mlir.passmanager import PassManager  # noqa: F401


class LoweringFailed(RuntimeError):
    """The op imported into the torch dialect but did not lower to StableHLO."""


def _inject_fault(target: str) -> None:
    fault, _, op = os.environ.get("TTBENCH_WORKER_FAULT", "").partition(":")
    if op != target:
        return
    if fault == "abort":
        os.abort()
    if fault == "hang":
        while True:
            time.sleep(60)


def _handle(request: dict, runner: Runner, lowering: Lowering) -> dict:
    if request["kind"] in ("lower", "lower_onnx"):
        try:
            text = lowering.fx(request["spec"]) if request["kind"] == "lower" else lowering.onnx(request["model"])
        except LoweringFailed as exc:
            return {"ok": False, "stage": "torchfx", "error": _one_line(exc)}
        except Exception as exc:
            return _not_imported(request["kind"], exc)
        with open(request["out"], "w") as f:
            f.write(text)
        return {"ok": True, "stage": "stablehlo"}
    if request["kind"] == "run":
        with open(request["module"]) as f:
            text = f.read()
        reply = _run(runner, text, load_arrays(request["inputs"], "arg"), request.get("keep", False))
        if reply["ok"]:
            outputs = reply.pop("arrays")
            save_arrays(request["outputs"], outputs, "out")
            reply["outputs"] = len(outputs)
        return reply
    if request["kind"] == "lower_many":
        return lowering.many(request["unit_kind"], request["paths"], request["outs"])
    if request["kind"] == "warm":
        _warm_lowering()
        return {"ok": True}
    if request["kind"] == "run_many":
        texts = []
        for path in request["modules"]:
            with open(path) as f:
                texts.append(f.read())
        inputs = load_arrays(request["inputs"], "arg")
        try:
            text, counts = one_program(texts)
            outputs, compile_s, run_s = runner.run(text, inputs)
        except Exception as exc:  # the parent runs each unit alone then, for its own verdict
            return {"ok": False, "stage": "stablehlo", "error": _one_line(exc)}
        save_arrays(request["outputs"], outputs, "out")
        return {"ok": True, "stage": "executed", "compile_seconds": compile_s, "run_seconds": run_s,
                "counts": counts}
    return {"ok": False, "error": f"unknown request kind {request['kind']!r}"}


def _run(runner: Runner, text: str, inputs: list, keep: bool = False) -> dict:
    """A "run" request's reply, with the outputs as numpy arrays in "arrays" when it ran."""
    try:
        outputs, compile_s, run_s = runner.run(text, inputs, keep=keep)
    except Exception as exc:
        return {"ok": False, "stage": "stablehlo", "error": _one_line(exc)}
    return {"ok": True, "stage": "executed", "compile_seconds": compile_s, "run_seconds": run_s, "arrays": outputs}


_HERE: dict = {}  # the CPU runner of run_here, made on its first run


def run_here(text: str, inputs: list) -> dict:
    """StableHLO text run on the CPU in this process, the reply as the worker's to a "run" request (with
    "arrays"). For a disposable job only (proc.children.in_disposable_job): the job is the container, and a
    worker of its own costs a Python start with torch and jax imported (hf/bert's CPU run: 1.8 s in a worker, 0.7 s
    here, of a ~6 s job)."""
    if "cpu" not in _HERE:
        _HERE["cpu"] = Runner("cpu")
    return _run(_HERE["cpu"], text, inputs)


def _one_line(exc: BaseException) -> str:
    """The message, not the pointer: XLA puts "See https://openxla.org/xla/errors/..." lines beside the real text
    ("expected parameter 0 of size 256 ... but got ..."), and those lines say "error" too."""
    text = str(exc).strip()
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    said = [l for l in lines if not _is_pointer(l)] or lines
    errors = [l for l in said if "error" in l.lower() and not l.lower().rstrip(":").endswith("error")]
    return f"{type(exc).__name__}: {(errors or said or [''])[0][:400]}"


def _is_pointer(line: str) -> bool:
    """A line that only points somewhere else (a URL to the error's documentation)."""
    words = line.split()
    return any(w.startswith(("http://", "https://")) for w in words) and len(words) <= 6


def main() -> int:
    watch_parent()
    device = sys.argv[1] if len(sys.argv) > 1 else "cpu"

    def start():
        runner = Runner(device)
        return (runner, Lowering()), {"device": str(runner.device), "stablehlo_version": runner.version}

    return serve(start, lambda state, request: _handle(request, *state), describe=_one_line)


if __name__ == "__main__":
    sys.exit(main())
