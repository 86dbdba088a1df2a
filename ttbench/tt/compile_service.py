"""A run's Tenstorrent compile service: one plugin process that compiles for every job of a tracker or sweep run.

A one-shot compile (plugin.compile_stablehlo: tt_worker.py compile) starts the plugin for each module, ~2.7 s of
bert's 3 s compile (the compile itself: 0.3 s), under the machine-wide plugin lock, so that with two jobs at a time
the starts queue behind each other: ~500 tracker jobs reach the TT compiler. The run starts the service
(`running`), its jobs are told where it listens (`job_env`), and a job's compile asks it first (`compile_served`).

The service keeps one `tt_worker.py serve` process, with a temp folder of its own (the plugin unpacks its runtime
and writes its descriptor there: no other plugin process unpacks over it or deletes it), and compiles one module at
a time, each under the plugin lock as a one-shot compile is. It answers over a Unix socket in a private folder.

Only a success is taken from it. A module it fails to compile, or cannot answer for (a compiler error, a crash, a
hang, the service gone), is compiled again by the job in a one-shot worker of its own, so a failure's row (the
error, the compiler's log, where it stopped) is what a one-shot compile says. After a crash the next request starts
a fresh plugin; so does every RESTART_EVERY-th (what the plugin keeps between compiles is not ours to trust for a
whole run).
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import threading
import time
from typing import Iterator, Optional

from ..proc.children import in_disposable_job
from ..proc.client import WorkerClient, WorkerDied
from ..proc.scratch import cache_dir, remove_orphans, temp_dir

SERVICE_ENV = "TTBENCH_TT_COMPILE_SERVICE"  # a job's environment: the socket of its run's compile service
RESTART_EVERY = 200
SOCKET_NAME = "compile.sock"
PREFIX = "ttbench-compile-service-"
WAITED_S = 0.05  # a wait for the lock below this is the taking of it, not another compile ahead (not said)


class CompileService:
    """See the module doc. `command`: tt_worker.py serve; `env`: the plugin's environment (its TMPDIR replaced);
    `lock(timeout)`: the plugin lock (a context manager yielding whether it was taken): plugin.py owns all three
    (plugin.compile_service)."""

    def __init__(self, command: list, env: dict, lock):
        # The plugin's temp folder (~420 MB of runtime unpacked) beside the cache, a killed run's reclaimed; the
        # socket in a folder of the system's temp (a Unix socket's path must stay short), 0700: only this user
        # connects.
        remove_orphans(PREFIX, cache_dir())
        remove_orphans(PREFIX)
        self.folders = [temp_dir(PREFIX, cache_dir()), temp_dir(PREFIX)]
        self.plugin_tmp, self.path = self.folders[0], os.path.join(self.folders[1], SOCKET_NAME)
        self.worker = WorkerClient("tt", start_timeout=300, env={**env, "TMPDIR": self.plugin_tmp},
                                   command=command, cwd=cache_dir())  # cwd: see plugin.run_worker
        self.lock = lock
        self.compiles = self.served = 0
        self.one_at_a_time = threading.Lock()
        self.closed = False
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.listener.bind(self.path)
            self.listener.listen(16)
        except OSError:
            self.close()
            raise
        threading.Thread(target=self._accept, name="ttbench-compile-service", daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                connection, _ = self.listener.accept()
            except OSError:  # closed
                return
            threading.Thread(target=self._answer, args=(connection,), daemon=True).start()

    def _answer(self, connection: socket.socket) -> None:
        with connection, connection.makefile("rw") as stream:
            try:
                request = json.loads(stream.readline())
                reply = self.compile(request["source"], request["export"], request.get("optimization_level"),
                                     float(request["timeout"]))
            except (ValueError, KeyError, TypeError) as exc:
                reply = {"ok": False, "error": f"bad request: {exc}"}
            except Exception as exc:  # noqa: BLE001 - the run closing under a compile: the job compiles it itself
                reply = {"ok": False, "error": f"the compile service failed: {type(exc).__name__}: {exc}"}
            with contextlib.suppress(OSError):
                stream.write(json.dumps(reply) + "\n")
                stream.flush()

    def compile(self, source: str, export: str, optimization_level: Optional[int], timeout: float) -> dict:
        """One module, as tt_worker.py's serve mode compiles it -> {"ok", "error", "seconds", "lock_wait_seconds"}."""
        t0 = time.perf_counter()
        with self.one_at_a_time, self.lock(timeout) as locked:
            waited = time.perf_counter() - t0
            if not locked:
                return {"ok": False, "error": "the plugin lock was not free", "seconds": 0.0,
                        "lock_wait_seconds": waited}
            if self.compiles and self.compiles % RESTART_EVERY == 0:
                self.worker.close()
            self.compiles += 1
            t1 = time.perf_counter()
            try:
                reply = self.worker.request({"source": source, "export": export, "inputs": None, "outputs": None,
                                             "optimization_level": optimization_level}, timeout)
            except WorkerDied as exc:
                reply = {"ok": False, "error": f"the compiler crashed or hung ({exc})"}
            ok = bool(reply.get("ok"))
            self.served += ok
            return {"ok": ok, "error": reply.get("error"), "seconds": time.perf_counter() - t1,
                    "lock_wait_seconds": waited if waited >= WAITED_S else 0.0}

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(OSError):
            self.listener.close()
        self.worker.close()
        for folder in self.folders:
            shutil.rmtree(folder, ignore_errors=True)


_current: Optional[CompileService] = None


@contextlib.contextmanager
def running(command: list, env: dict, lock) -> Iterator[Optional[CompileService]]:
    """A compile service for the jobs started in this `with` block (job_env tells them where it is); None, and
    each job compiles one-shot, where it cannot start (no socket can be made)."""
    global _current
    try:
        service: Optional[CompileService] = CompileService(command, env, lock)
    except OSError:
        service = None
    previous, _current = _current, service
    try:
        yield service
    finally:
        _current = previous
        if service is not None:
            service.close()


def job_env() -> dict:
    """What a job's environment needs to reach the running service ({} when none runs in this process)."""
    return {SERVICE_ENV: _current.path} if _current is not None else {}


def compile_served(source: str, export: str, optimization_level: Optional[int], timeout: float) -> Optional[dict]:
    """In a disposable job of a run with a service: the service's reply to compiling `source` into `export` (see
    CompileService.compile); None when there is no service to ask or it did not answer (the caller compiles the
    module itself)."""
    path = os.environ.get(SERVICE_ENV)
    if not path or not in_disposable_job():
        return None
    request = {"source": os.path.abspath(source), "export": os.path.abspath(export),
               "optimization_level": optimization_level, "timeout": timeout}
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(2 * timeout + 60)  # the compile, and the lock before it
            connection.connect(path)
            with connection.makefile("rw") as stream:
                stream.write(json.dumps(request) + "\n")
                stream.flush()
                line = stream.readline()
        return json.loads(line) if line else None
    except (OSError, ValueError):
        return None
