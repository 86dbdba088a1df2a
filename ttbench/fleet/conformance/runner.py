"""Running conformance tests in worker processes (`python -m ttbench.fleet.conformance worker`, speaking ttbench's
one line protocol: proc/line_protocol.py in the worker, proc/client.WorkerClient here), each test under a timeout:
a test that hangs or crashes its worker is a row saying so, and the next test gets a fresh worker. Locally or as
Ray tasks (fleet/executors.py)."""
from __future__ import annotations

import os
import sys
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor

from ...core import BadInput
from ...proc.children import watch_parent
from ...proc.client import WorkerClient, WorkerDied
from ...proc.line_protocol import serve
from .. import executors
from .cases import TEST_TIMEOUT_S, collect, op_of, run_case


def worker_main() -> int:
    """A conformance worker: {"test": NAME} per line on stdin -> that test's row (the line protocol of
    proc/line_protocol.py; the test cases are collected first, ~5 s, before the ready line)."""
    watch_parent()
    warnings.filterwarnings("ignore")
    tt = os.environ.get("TTBENCH_CONFORMANCE_TT") == "1"
    return serve(lambda: (collect(), {}), lambda cases, request: run_case(cases[request["test"]], cases, tt=tt))


def _worker(tt: bool) -> WorkerClient:
    return WorkerClient("conformance", start_timeout=120.0,
                        command=[sys.executable, "-m", "ttbench.fleet.conformance", "worker"],
                        env={**os.environ, "TTBENCH_CONFORMANCE_TT": "1" if tt else "0"})


CHUNK = 25  # tests per Ray task: one worker start (imports, ~5 s) is shared by that many tests


def run(names=None, ops=None, jobs: int = 2, tt: bool = True, timeout: float = TEST_TIMEOUT_S, progress=None,
        engine: str = None, address: str = None) -> list:
    """Rows for the chosen node tests (see collect), in test order. Here, `jobs` worker processes share the
    tests and stream rows as they finish; with engine="ray", chunks of CHUNK tests are Ray tasks (executors.py),
    each running this same loop with one worker on its node, and rows come back a chunk at a time."""
    if jobs < 1:
        raise BadInput(f"--jobs must be at least 1, got {jobs}")
    cases = collect(names, ops)
    engine = engine or ("ray" if os.environ.get("RAY_ADDRESS") else "local")
    if engine != "local":
        return _run_on_engine(list(cases), jobs, tt, timeout, progress, engine, address)
    todo = list(cases)
    lock, rows, done = threading.Lock(), {}, [0]

    def slot(_):
        worker = None
        try:
            while True:
                with lock:
                    if not todo:
                        return
                    name = todo.pop(0)
                worker = worker or _worker(tt)
                try:  # a test that hangs or kills its worker is a row; the next request starts a fresh worker
                    row = worker.request({"test": name}, timeout)
                except WorkerDied as exc:
                    row = {"test": name, "op": op_of(cases[name], cases),
                           "ttbench": {"reached": None, "cpu": None, "tt": None, "error": f"the worker: {exc}"},
                           "bare": {"reached": None, "cpu": None, "error": "not run"}, "seconds": None}
                with lock:
                    rows[name] = row
                    done[0] += 1
                    if progress:
                        progress(done[0], len(cases), row)
        finally:
            if worker is not None:
                worker.close()

    with ThreadPoolExecutor(max_workers=min(jobs, len(cases))) as pool:
        list(pool.map(slot, range(min(jobs, len(cases)))))
    return [rows[n] for n in cases]


def run_chunk(names: list, tt: bool, timeout: float) -> dict:
    """One engine job: these tests with one worker (crashes and hangs stay rows, as above)."""
    return {"rows": run(names, jobs=1, tt=tt, timeout=timeout)}


def _run_on_engine(names: list, jobs: int, tt: bool, timeout: float, progress, engine: str, address) -> list:
    runner = executors.engine(engine, jobs, address)
    chunks = [names[i:i + CHUNK] for i in range(0, len(names), CHUNK)]
    done = [0]

    def finished(_, result):
        for row in result.get("rows") or []:
            done[0] += 1
            if progress:
                progress(done[0], len(names), row)

    try:
        results = runner.run([executors.Job(run_chunk, (chunk, tt, timeout), timeout * len(chunk))
                              for chunk in chunks], finished)
    finally:
        runner.close()
    rows = {r["test"]: r for result in results for r in result.get("rows") or []}
    lost = [n for n in names if n not in rows]  # a chunk the engine lost: each of its tests says so
    for result, chunk in zip(results, chunks):
        for name in chunk:
            if name in lost:
                rows[name] = {"test": name, "op": "?", "seconds": None,
                              "ttbench": {"reached": None, "cpu": None, "tt": None,
                                          "error": result.get("error") or "lost by the engine"},
                              "bare": {"reached": None, "cpu": None, "error": "not run"}}
    return [rows[n] for n in names]

