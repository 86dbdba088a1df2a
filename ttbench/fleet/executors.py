"""Where many independent jobs run (the sweep's bringups): one small interface, two engines (ENGINES).

A job is a module-level function and its arguments; it returns a row (a dict) and contains its own work in a
child process (sweep._child), so a native crash or hang inside it is a row. A child that was killed (a signal,
not a timeout: the OOM killer, a lost node) is run once more, and then reported with both attempts counted.

    local  a pool of threads, each waiting on its job's child process: the default, nothing to install
    ray    each job a Ray task (1 CPU each, memory if given) on an existing cluster (`address`, or RAY_ADDRESS),
           or on a local one started on 127.0.0.1 for this run; a worker that dies is retried once by Ray;
           rows stream back as jobs finish. Every node needs the same ttbench install (and the TT plugin for TT
           stages): the Tenstorrent plugin lock is a file in each node's cache folder, so it holds per node.
"""
from __future__ import annotations

import logging
import os
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..core import BadInput
from ..optional import ray as ray_piece

RAY_SLACK_S = 120.0  # beyond a job's own timeout, before the engine gives up on a Ray task


@dataclass(frozen=True)
class Job:
    fn: Callable  # module-level (Ray sends it by reference): fn(*args) -> row dict
    args: tuple
    timeout: float  # the job's own limit (fn enforces it on its child); the engine allows RAY_SLACK_S more
    memory_bytes: Optional[int] = None  # a Ray resource request; the local engine does not enforce it


def run_with_retry(fn: Callable, args: tuple) -> dict:
    """fn(*args), once more if its child was killed (row["killed"]); the row says how many attempts it took."""
    row = fn(*args)
    attempts = 1
    if row.get("killed"):
        row = fn(*args)
        attempts = 2
    row["attempts"] = attempts
    return row


@dataclass
class LocalEngine:
    jobs: int = 2
    name: str = "local"

    def run(self, jobs: list, on_row: Callable) -> list:
        """Rows in the order of `jobs`; `on_row(index, row)` as each finishes."""
        rows: list = [None] * len(jobs)
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            futures = {pool.submit(run_with_retry, j.fn, j.args): i for i, j in enumerate(jobs)}
            for future in as_completed(futures):
                i = futures[future]
                rows[i] = future.result()
                on_row(i, rows[i])
        return rows

    def close(self) -> None:
        pass


@dataclass
class RayEngine:
    jobs: int = 2  # CPUs of the local cluster when ttbench starts one
    address: Optional[str] = None
    name: str = "ray"
    _started: bool = field(default=False, repr=False)

    def __post_init__(self):
        piece = ray_piece()
        if not piece.available:
            raise BadInput(f"--engine ray needs Ray: {piece.hint}")
        import ray

        self.ray = ray
        address = self.address or os.environ.get("RAY_ADDRESS")
        if ray.is_initialized():
            return  # the caller's own session: use it, leave it running
        common = dict(include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
        if address:
            ray.init(address=address, **common)
        else:  # a private cluster on this machine, loopback only, gone when the sweep ends
            ray.init(address="local", num_cpus=self.jobs, _node_ip_address="127.0.0.1", **common)
        self._started = True

    def run(self, jobs: list, on_row: Callable) -> list:
        ray = self.ray
        task = ray.remote(run_with_retry)
        refs, started = {}, {}
        for i, job in enumerate(jobs):
            options = {"num_cpus": 1, "max_retries": 1, "retry_exceptions": False}
            if job.memory_bytes:
                options["memory"] = job.memory_bytes
            ref = task.options(**options).remote(job.fn, job.args)
            refs[ref], started[ref] = i, time.monotonic()
        rows: list = [None] * len(jobs)
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1, timeout=5.0)
            for ref in done:
                i = refs[ref]
                try:
                    rows[i] = ray.get(ref)
                except Exception as exc:  # noqa: BLE001 - the worker died twice, or the task failed: a row
                    rows[i] = _lost(jobs[i], f"Ray task failed after a retry: {type(exc).__name__}: "
                                             f"{str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ''}")
                on_row(i, rows[i])
            now = time.monotonic()
            for ref in [r for r in pending if now - started[r] > jobs[refs[r]].timeout + RAY_SLACK_S]:
                ray.cancel(ref, force=True)
                pending.remove(ref)
                i = refs[ref]
                rows[i] = _lost(jobs[i], f"no result from its Ray task after {jobs[i].timeout + RAY_SLACK_S:g} s")
                on_row(i, rows[i])
        return rows

    def close(self) -> None:
        if self._started:
            self.ray.shutdown()


def _lost(job: Job, why: str) -> dict:
    """The row of a job whose engine lost it: what the job was about (its first arguments), and why."""
    model, frontend = (list(job.args) + [None, None])[:2]
    return {"model": model, "frontend": frontend, "furthest": None, "failed_stage": "?", "error": why}


ENGINES = {"local": LocalEngine, "ray": RayEngine}


def engine(name: Optional[str], jobs: int, address: Optional[str] = None):
    """The engine by name; None picks ray when RAY_ADDRESS is set, else local."""
    name = name or ("ray" if os.environ.get("RAY_ADDRESS") else "local")
    if name not in ENGINES:
        raise BadInput(f"unknown engine {name!r}: choose one of {', '.join(ENGINES)}")
    if jobs < 1:
        raise BadInput(f"--jobs must be at least 1, got {jobs}")
    return ENGINES[name](jobs=jobs, address=address) if name == "ray" else ENGINES[name](jobs=jobs)
