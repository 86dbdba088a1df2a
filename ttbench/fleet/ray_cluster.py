"""Ray for the sweep and the conformance run: a cluster the user names (`--address`, RAY_ADDRESS), or a private one
that ttbench starts for one run and owns.

A private cluster lives in its own user, network and pid namespaces (`unshare`), in a host process
(`python -m ttbench.fleet.ray_cluster`) that starts Ray and runs the jobs it is handed:
- the network namespace holds only its own loopback, so Ray's servers (GCS, raylet, agents, workers; Ray 2.60 binds
  some of them to every interface, with no option to narrow it) listen on 127.0.0.1 there, reachable by nothing
  outside the run, and Ray's look-up of "the node's address" by connecting out to 8.8.8.8 fails at once;
- the host is the pid namespace's first process: when it ends, normally or because the sweep was killed (the host
  dies with `unshare`, which dies with the sweep: `setpriv --pdeathsig`), the kernel ends every process in it.
  Without it Ray's dashboard and runtime-env agents outlive a SIGKILLed driver for good;
- Ray's session folder is a private temp folder of this run's, not the shared /tmp/ray.
A machine that refuses user namespaces gets a one-line refusal (start a cluster yourself, or --engine local): a
private cluster that listens on every interface is not offered silently.

Start-up and joining have a deadline (TTBENCH_RAY_START_TIMEOUT, default 120 s): past it, one line and exit 1; an
address that is malformed or where nothing listens is bad configuration, exit 2.
"""
from __future__ import annotations

import base64
import fcntl
import functools
import logging
import os
import pickle
import select
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
from typing import Callable, Optional

from ..core import BadInput, ServiceFailed, seconds_from
from ..optional import ray as ray_piece
from ..proc.children import kill_group, run_once, start
from ..proc.scratch import remove_orphans, temp_dir
from .jobs import lost_row, run_with_retry

RAY_SLACK_S = 120.0  # beyond a job's own timeout, before the engine gives up on a Ray task
START_TIMEOUT_ENV = "TTBENCH_RAY_START_TIMEOUT"
START_TIMEOUT_S = 120.0
NAMESPACES = ["unshare", "--user", "--map-root-user", "--net", "--pid", "--mount-proc", "--fork", "--kill-child"]
READY, DONE, ROW = "TTBENCH-RAY-READY", "TTBENCH-RAY-DONE", "TTBENCH-RAY-ROW"


def start_timeout() -> float:
    """How long a Ray cluster may take to start or be joined (TTBENCH_RAY_START_TIMEOUT seconds)."""
    text = os.environ.get(START_TIMEOUT_ENV)
    if text is None:
        return START_TIMEOUT_S
    value = seconds_from(text)
    if value is None:
        raise BadInput(f"{START_TIMEOUT_ENV}={text!r} is not a number of seconds above 0")
    return value


def import_ray():
    piece = ray_piece()
    if not piece.available:
        raise BadInput(f"--engine ray needs Ray: {piece.hint}")
    import ray

    return ray


def run_on_ray(ray, jobs: list, on_row: Callable) -> list:
    """Each job a Ray task (1 CPU, its memory if given, retried once by Ray if its worker dies); rows in the order of
    `jobs`, `on_row(index, row)` as each finishes; a task past its job's timeout + RAY_SLACK_S is cancelled."""
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
                rows[i] = lost_row(jobs[i], f"Ray task failed after a retry: {type(exc).__name__}: "
                                            f"{str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ''}")
            on_row(i, rows[i])
        now = time.monotonic()
        for ref in [r for r in pending if now - started[r] > jobs[refs[r]].timeout + RAY_SLACK_S]:
            ray.cancel(ref, force=True)
            pending.remove(ref)
            i = refs[ref]
            rows[i] = lost_row(jobs[i], f"no result from its Ray task after {jobs[i].timeout + RAY_SLACK_S:g} s")
            on_row(i, rows[i])
    return rows


# --- a cluster the user names -----------------------------------------------------------------------------------

def join(ray, address: str, timeout: float) -> None:
    """ray.init on the user's cluster, within `timeout`. Ray itself retries an address where nothing answers for
    minutes: a malformed address, or one where nothing listens, is refused first."""
    if address != "auto":
        host, _, port = address.removeprefix("ray://").rpartition(":")
        if not host or not port.isdigit():
            raise BadInput(f"Ray address {address!r} is not HOST:PORT (e.g. 10.0.0.5:6379, or `auto` for the "
                           f"cluster `ray start` began on this machine)")
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout=min(timeout, 10.0)).close()
        except OSError as exc:
            raise BadInput(f"nothing answers at Ray address {address} ({exc.strerror or exc}): is the cluster up? "
                           f"(`ray status --address {address}`)") from None
    failure: list = []

    def init():
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
        except Exception as exc:  # noqa: BLE001 - handed to the caller's thread
            failure.append(exc)

    joining = threading.Thread(target=init, name="ttbench-ray-join", daemon=True)
    joining.start()
    joining.join(timeout)
    if joining.is_alive():
        raise ServiceFailed(f"could not join the Ray cluster at {address} within {timeout:g} s (raise "
                            f"{START_TIMEOUT_ENV}, or check `ray status --address {address}`)")
    if failure:
        exc = failure[0]
        first = (str(exc).strip().splitlines() or [""])[0][:300]
        raise BadInput(f"could not join the Ray cluster at {address}: {type(exc).__name__}: {first}")


# --- a private cluster, parent side -----------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def namespaces_refused() -> Optional[str]:
    """Why this machine will not give the private cluster its own namespaces (None: it will)."""
    for tool in ("setpriv", "unshare"):
        if shutil.which(tool) is None:
            return f"`{tool}` (util-linux) is not installed"
    done = run_once([*NAMESPACES, "true"], timeout=30)
    if not done.ok:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        return lines[-1].strip() if lines else f"unshare exited {done.returncode}"
    return None


class PrivateCluster:
    """A Ray cluster of `cpus` CPUs for this run, in its own namespaces (see the module's docstring)."""

    def __init__(self, cpus: int, timeout: float):
        import_ray()
        refused = namespaces_refused()
        if refused:
            raise BadInput(f"a private Ray cluster runs in its own network namespace, so that nothing outside this run "
                           f"can reach it, and this machine refuses one ({refused}): start a cluster yourself "
                           f"(`ray start --head`) and pass --address, or use --engine local")
        remove_orphans("ttbench-ray-")
        self.folder = temp_dir("ttbench-ray-")
        self.errors_path = os.path.join(self.folder, "host.err")
        with open(self.errors_path, "w") as errors:
            self.process = start(["setpriv", "--pdeathsig", "KILL", *NAMESPACES, sys.executable, "-m",
                                  "ttbench.fleet.ray_cluster", str(cpus), self.folder],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True)
        line = self._line(time.monotonic() + timeout)
        if line != READY:
            why = self._why()
            self.stop()
            if line is None and not why:
                raise ServiceFailed(f"the private Ray cluster did not start within {timeout:g} s (raise "
                                    f"{START_TIMEOUT_ENV}, or pass --address of a running cluster)")
            raise ServiceFailed(f"the private Ray cluster did not start: {why or line}")

    def run(self, jobs: list, on_row: Callable) -> list:
        rows: list = [None] * len(jobs)
        path = os.path.join(self.folder, f"jobs-{time.monotonic_ns()}.pickle")
        with open(path, "wb") as f:
            pickle.dump(jobs, f)
        try:
            self.process.stdin.write(path + "\n")
            self.process.stdin.flush()
        except OSError:
            pass  # the host is gone: every job is lost, below
        while True:
            line = self._line(None)
            if line is None or line == DONE:
                break
            if line.startswith(ROW + " "):
                _, index, data = line.split(" ", 2)
                i = int(index)
                rows[i] = pickle.loads(base64.b64decode(data))  # our own child's answer
                on_row(i, rows[i])
        lost = [i for i, row in enumerate(rows) if row is None]
        if lost:
            why = f"the private Ray cluster ended before this job did: {self._why() or 'no reason given'}"
            for i in lost:
                rows[i] = lost_row(jobs[i], why)
                on_row(i, rows[i])
        return rows

    def _line(self, deadline: Optional[float]) -> Optional[str]:
        """The host's next line of ours (others are Ray's chatter); None at its end or past the deadline."""
        while True:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and (remaining <= 0 or not select.select([self.process.stdout], [], [],
                                                                               remaining)[0]):
                return None
            line = self.process.stdout.readline()
            if not line:
                return None
            if line.startswith("TTBENCH-RAY-"):
                return line.rstrip("\n")

    def _why(self) -> str:
        """The host's last line of error output."""
        try:
            with open(self.errors_path, errors="replace") as f:
                lines = [line.strip() for line in f.read().splitlines() if line.strip()]
        except OSError:
            return ""
        return lines[-1][:300] if lines else ""

    def stop(self) -> None:
        """Ray shut down, then everything in the namespaces gone (the kernel sees to the stragglers)."""
        if self.process.poll() is None:
            try:
                self.process.stdin.close()
                self.process.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                pass
        kill_group(self.process)
        shutil.rmtree(self.folder, ignore_errors=True)


# --- a private cluster, host side (inside the namespaces) --------------------------------------------------------

def _loopback_up() -> None:
    """A new network namespace's loopback starts down."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        iff_up, iff_loopback, iff_running = 0x1, 0x8, 0x40
        fcntl.ioctl(s, 0x8914, struct.pack("16sH14x", b"lo", iff_up | iff_loopback | iff_running))  # SIOCSIFFLAGS


def _host(cpus: int, folder: str) -> int:
    _loopback_up()
    import ray

    ray.init(address="local", num_cpus=cpus, include_dashboard=False, log_to_driver=False,
             logging_level=logging.WARNING, _temp_dir=os.path.join(folder, "ray"))
    print(READY, flush=True)
    for line in sys.stdin:  # a jobs file per line, until the parent closes our stdin
        with open(line.strip(), "rb") as f:
            jobs = pickle.load(f)  # written by the process that started us, in its private folder

        def send(i, row):
            print(ROW, i, base64.b64encode(pickle.dumps(row)).decode(), flush=True)

        run_on_ray(ray, jobs, send)
        print(DONE, flush=True)
    ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(_host(int(sys.argv[1]), sys.argv[2]))
