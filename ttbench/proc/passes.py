"""The torch-mlir pass workers: child processes (mlir_worker.py) that run pass pipelines on a copy of a module, one
started ahead of its job (stages/mlir_stage.run_pipelines is the caller's side). A crash, a hang or running out of
memory in the passes is the child's, said as a CompilerFailure."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

from ..core import CompilerFailure, env_seconds
from .children import in_disposable_job, kill_group, start
from .scratch import remove_orphans, temp_dir

OUT_OF_MEMORY = re.compile(r"bad_alloc|out of memory")  # C++'s exception, LLVM's abort: the two ways it is said
# How long one lowering may take before ttbench calls the pass pipeline hung (TTBENCH_PASS_TIMEOUT overrides).
PASS_TIMEOUT_S = 900.0
PASSES_PREFIX = "ttbench-passes-"
WORKER_FAULT_ENV = "TTBENCH_MLIR_WORKER_FAULT"  # for tests: see mlir_worker._inject_fault
WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mlir_worker.py")
_SPARE_LOCK = threading.Lock()
_spare: list = []  # at most one worker started ahead of its job (see prestart_worker)


def _spawn_worker():
    return start([sys.executable, WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                 text=True, errors="replace")


def prestart_worker() -> None:
    """Start the next pass-pipeline worker now (Python and torch_mlir take ~0.3 s to start), so that it is ready
    when the lowering needs it; bringup calls this before capturing the graph. A disposable job lowers in its own
    process (stages.mlir_stage.start_pipelines): no worker."""
    if in_disposable_job():
        return
    with _SPARE_LOCK:
        if not any(p.poll() is None for p in _spare):
            _spare[:] = [_spawn_worker()]


def _take_worker():
    with _SPARE_LOCK:
        ready = [p for p in _spare if p.poll() is None]
        _spare.clear()
    return ready[0] if ready else _spawn_worker()


def start_pipelines(module, pipelines: list) -> "PendingPipelines":
    """run_pipelines in the background: the worker lowers a copy of `module` while the caller goes on (bringup
    reads the torchfx stage meanwhile); `.result()` is what run_pipelines returns or raises."""
    return PendingPipelines(module, pipelines)


class PendingPipelines:
    """Pass pipelines running in a worker process on a copy of a module. Exactly one of `result()` (the lowered
    module, in the input's context, or the CompilerFailure) and `cancel()` (the worker ended) is called; either
    removes the job's files (a killed caller's are reclaimed by the next temp folder of this prefix)."""

    def __init__(self, module, pipelines: list):
        self.module, self.pipelines = module, pipelines
        remove_orphans(PASSES_PREFIX)
        self.folder = temp_dir(PASSES_PREFIX)
        try:
            source, self.out = os.path.join(self.folder, "in.mlirbc"), os.path.join(self.folder, "out.mlirbc")
            with open(source, "wb") as f:
                f.write(module.operation.get_asm(enable_debug_info=True, binary=True))
            self.worker = _take_worker()
            job = {"in": source, "out": self.out, "pipelines": [list(p) for p in pipelines],
                   "fault": os.environ.get(WORKER_FAULT_ENV, "")}
            self.deadline = env_seconds("TTBENCH_PASS_TIMEOUT", PASS_TIMEOUT_S)
            self.started = time.monotonic()
            self.worker.stdin.write(json.dumps(job) + "\n")
            self.worker.stdin.flush()
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise

    def cancel(self) -> None:
        kill_group(self.worker)
        self.worker.communicate()
        shutil.rmtree(self.folder, ignore_errors=True)

    def result(self):
        from torch_mlir import ir

        try:
            return self._result(ir)
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def _result(self, ir):
        worker, pipelines, deadline = self.worker, self.pipelines, self.deadline
        try:
            stdout, stderr = worker.communicate(timeout=max(0.0, deadline - (time.monotonic() - self.started)))
        except subprocess.TimeoutExpired:
            kill_group(worker)
            stdout, _ = worker.communicate()
            steps = [l.split(": ", 1)[1] for l in stdout.splitlines() if l.startswith("running: ")]
            raise CompilerFailure(f"torch-mlir's {steps[-1] if steps else pipelines[0][1]} did not finish in "
                                  f"{deadline:g} s (a hung pass); set TTBENCH_PASS_TIMEOUT to more seconds if it "
                                  f"only needs longer") from None
        if worker.returncode == 0 and os.path.isfile(self.out):
            self.module.context.load_all_available_dialects()  # what the passes loaded in the child
            with self.module.context, open(self.out, "rb") as f:
                return ir.Module.parse(f.read())
        steps = [l.split(": ", 1)[1] for l in stdout.splitlines() if l.startswith(("running: ", "failed: "))]
        where = steps[-1] if steps else pipelines[0][1]
        if worker.returncode < 0:
            name = signal.Signals(-worker.returncode).name
            if OUT_OF_MEMORY.search(stderr or ""):  # LLVM's handler aborts: say why it did
                raise CompilerFailure(f"torch-mlir ran out of memory ({name}: "
                                      f"{' / '.join(stderr.strip().splitlines()[-2:])}) in {where}")
            raise CompilerFailure(f"torch-mlir crashed ({name}) in {where}")
        raise CompilerFailure(f"{stderr.strip()}\n{where} failed")
