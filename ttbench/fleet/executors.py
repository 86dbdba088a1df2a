"""Where many independent jobs run (the sweep's bringups): one small interface, two engines (ENGINES).

A job is a module-level function and its arguments; it returns a row (a dict) and contains its own work in a
child process (sweep._child), so a native crash or hang inside it is a row. A child that was killed (a signal,
not a timeout: the OOM killer, a lost node) is run once more, and then reported with both attempts counted.

    local  a pool of threads, each waiting on its job's child process: the default, nothing to install; Ctrl-C
           kills the running jobs' processes (stoppable_pool) and starts no more
    ray    each job a Ray task (1 CPU each, memory if given) on an existing cluster (`address`, or RAY_ADDRESS),
           or on a private one started for this run (ray_cluster.py: in its own namespaces, reachable from nothing
           outside the run, and gone with it even when the run is killed); a worker that dies is retried once by Ray;
           rows stream back as jobs finish. Every node needs the same ttbench install (and the TT plugin for TT
           stages): the Tenstorrent plugin lock is a file in each node's cache folder, so it holds per node.
"""
from __future__ import annotations

import os
from concurrent.futures import as_completed
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..core import BadInput
from ..proc.children import stoppable_pool
from .jobs import Job, run_with_retry
from .ray_cluster import PrivateCluster, import_ray, join, run_on_ray, start_timeout

__all__ = ["Job", "LocalEngine", "RayEngine", "ENGINES", "engine"]


@dataclass
class LocalEngine:
    jobs: int = 2
    name: str = "local"

    def run(self, jobs: list, on_row: Callable) -> list:
        """Rows in the order of `jobs`; `on_row(index, row)` as each finishes."""
        rows: list = [None] * len(jobs)
        with stoppable_pool(self.jobs) as pool:  # Ctrl-C: the running jobs go too, none starts
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
    jobs: int = 2  # CPUs of the private cluster when ttbench starts one
    address: Optional[str] = None
    name: str = "ray"
    _private: Optional[PrivateCluster] = field(default=None, repr=False)
    _joined: bool = field(default=False, repr=False)

    def __post_init__(self):
        ray = self.ray = import_ray()
        timeout = start_timeout()
        address = self.address or os.environ.get("RAY_ADDRESS")
        if ray.is_initialized():
            return  # the caller's own session: use it, leave it running
        if address:
            join(ray, address, timeout)
            self._joined = True
        else:  # a private cluster (ray_cluster.py: its own namespaces, gone when the run ends)
            self._private = PrivateCluster(self.jobs, timeout)

    def run(self, jobs: list, on_row: Callable) -> list:
        """Rows in the order of `jobs`; `on_row(index, row)` as each finishes."""
        if self._private is not None:
            return self._private.run(jobs, on_row)
        return run_on_ray(self.ray, jobs, on_row)

    def close(self) -> None:
        if self._private is not None:
            self._private.stop()
        elif self._joined:
            self.ray.shutdown()


ENGINES = {"local": LocalEngine, "ray": RayEngine}


def engine(name: Optional[str], jobs: int, address: Optional[str] = None):
    """The engine by name; None picks ray when RAY_ADDRESS is set, else local."""
    name = name or ("ray" if os.environ.get("RAY_ADDRESS") else "local")
    if name not in ENGINES:
        raise BadInput(f"unknown engine {name!r}: choose one of {', '.join(ENGINES)}")
    if jobs < 1:
        raise BadInput(f"--jobs must be at least 1, got {jobs}")
    return ENGINES[name](jobs=jobs, address=address) if name == "ray" else ENGINES[name](jobs=jobs)
