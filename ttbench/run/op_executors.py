"""How far one op's lowered program gets on a device, per device kind (the op-by-op run's executors): PJRT on the CPU
or CUDA, the Tenstorrent compiler compile-only (with the unit's TTNN program interpreted on the CPU), in a registry."""
from __future__ import annotations

import os
from typing import Optional

from .. import optional
from ..core import BadInput, StageName
from ..io.arrays import from_numpy, to_numpy
from ..proc.array_files import load_arrays, save_arrays
from ..proc.client import WorkerDied, shared_client
from ..tt.interp import NotInterpreted, interpret_text
from ..tt.plugin import CompileSession, PluginError
from .whole import pjrt_text, run_text_on_device


# What gives a compile-only TT row its PCC (OpRow.pcc_from).
INTERPRETED_TTNN = "cpu · TTNN semantics (ttbench's interpreter of the unit's TTNN program)"


class PjrtExecutor:
    """cpu / cuda: compile and run through jaxlib's PJRT client in the device worker."""
    stage = "stablehlo"
    executes = True

    def __init__(self, device):
        self.device = device.name

    def __enter__(self):
        self.client = shared_client(self.device)
        return self

    def __exit__(self, *exc):
        pass

    def execute(self, text: str, inputs: list, tmp: str, timeout: float) -> tuple:
        """-> (furthest stage, error or None, output arrays or None)."""
        try:
            # kept by the worker: chained op by op runs one program once per occurrence of its op
            reply = run_text_on_device(self.client, pjrt_text(text), inputs, timeout, keep=True)
        except WorkerDied as exc:
            return "stablehlo", f"worker crashed or hung: {exc}", None
        if not reply.get("ok"):
            return "stablehlo", reply.get("error"), None  # did not compile or run
        return "executed", None, reply["arrays"]

    def execute_many(self, texts: list, inputs: list, tmp: str, timeout: float) -> Optional[list]:
        """Units compiled as one program and run once (unit_batch.py): the compile's fixed cost is paid once.
        -> each unit's output arrays, or None when the batch did not compile or run (each unit then runs alone,
        for its own verdict). `inputs`: each unit's list of arrays."""
        paths = []
        for i, text in enumerate(texts):
            paths.append(os.path.join(tmp, f"unit{i}.mlir"))
            with open(paths[-1], "w") as f:
                f.write(pjrt_text(text))
        feeds, results = os.path.join(tmp, "inputs.npz"), os.path.join(tmp, "outputs.npz")
        save_arrays(feeds, [x for unit in inputs for x in unit], "arg")
        try:
            reply = self.client.request({"kind": "run_many", "modules": paths, "inputs": feeds, "outputs": results},
                                        timeout)
        except WorkerDied:
            return None
        if not reply.get("ok"):
            return None
        arrays, out = load_arrays(results, "out"), []
        for count in reply["counts"]:
            out.append(arrays[:count])
            arrays = arrays[count:]
        return out


class TTExecutor:
    """tt: the Tenstorrent compiler, one plugin process for all ops (tt_plugin.CompileSession). Compile-only
    without a chip: the row's furthest stage is the last artifact the compiler wrote."""
    stage = "ttnn"

    def __init__(self, device):
        self.executes = device.usable

    def __enter__(self):
        piece = optional.tt_plugin()
        if not piece.available:
            raise BadInput(f"op by op on tt: Tenstorrent compiler plugin not available: {piece.hint}")
        self.session = None  # started at the first unit that reaches the compiler: none may (a torch-mlir failure)
        return self

    def __exit__(self, *exc):
        if self.session is not None:
            self.session.__exit__(*exc)

    def execute(self, text: str, inputs: list, tmp: str, timeout: float) -> tuple:
        if self.session is None:
            try:
                self.session = CompileSession().__enter__()
            except PluginError as exc:
                raise BadInput(f"op by op on tt: {exc}") from None
        compiled = self.session.compile(pjrt_text(text), tmp, timeout, inputs=inputs if self.executes else None)
        furthest = next((s for s in ("flatbuffer", "ttnn", "ttir") if s in compiled.files), "stablehlo")
        self.interpreted = None
        if not compiled.ok:
            return furthest, compiled.error, None
        if compiled.outputs is not None:
            return "executed", None, compiled.outputs
        if "ttnn" in compiled.files:  # compile-only: the unit's own TTNN program, run by ttbench's interpreter
            self.interpreted = interpret_ttnn_file(compiled.files["ttnn"], inputs)
        return furthest, None if furthest == "flatbuffer" else "the compiler wrote no flatbuffer", None


def interpret_ttnn_file(path: str, inputs: list) -> tuple:
    """(output arrays or None, why not) of the TTNN program in `path` run by ttbench's interpreter on `inputs`."""
    with open(path) as f:
        text = f.read()
    try:
        run = interpret_text(StageName.TTNN, text, [from_numpy(x) for x in inputs])
    except NotInterpreted as exc:
        return None, f"not interpreted: {exc}"
    return [to_numpy(t) for t in run.outputs], None


EXECUTORS: dict[str, type[PjrtExecutor] | type[TTExecutor]] = {
    "cpu": PjrtExecutor, "cuda": PjrtExecutor, "tt": TTExecutor}
