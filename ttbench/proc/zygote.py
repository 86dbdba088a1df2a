"""A zygote: one process that has imported what every job of a run imports, and forks a fresh copy of itself
per job, so that each job still runs in a process of its own (its crash, hang or leak is that job's alone) without
paying for the imports again. A tracker job spent ~5-10 s of ~20 importing torch, transformers, timm, torchvision,
torch-mlir and ttbench's pipeline on this 2-core machine; the fork costs milliseconds.

    with zygote.running(["ttbench.fleet.sweep:preload"]):   # one per run (LocalEngine.run)
        done = zygote.run_module("ttbench.fleet.sweep", ["job", ...], timeout, env)   # a children.Finished
        done = zygote.run_path("/tmp/x/script.py", timeout, env)   # a script, as `python -I` runs it

Fork safety: the zygote only imports (no torch op runs in it, so OpenMP's thread pool is first made in a job) and
forks from its one thread that matters (the parent watchdog holds no lock the child needs). It lives for one run:
the TTBENCH_* settings its imports read are the run's. A job's process is its own session (the zygote ends the
whole group when its time is up, as run_once does) and dies with the zygote, which dies with the run.
Where no zygote runs (a Ray worker, a test calling a job directly) run_module is run_once of `python -m MODULE`.

Protocol, a line each way: {"id", "module" or "path", "argv", "env", "cwd", "out", "err", "timeout"} in; "ready"
once, then "exited ID RETURNCODE TIMED_OUT" out (RETURNCODE negative: the signal that ended it, as subprocess says).
"""
from __future__ import annotations

import contextlib
import importlib
import itertools
import json
import os
import runpy
import select
import signal
import subprocess
import sys
import threading
import time
import traceback
from typing import Iterator, Optional

from .children import (PARENT_ENV, DEATHSIG_ENV, WAIT_SLICE_S, Finished, Stopped, kill_group, run_once, start,
                       stopping, watch_parent)
from .line_protocol import forked_job_stdio, forking_server_replies
from .scratch import temp_folder

READY_TIMEOUT_S = 300.0  # the imports on a loaded machine; past it the run goes on without a zygote

_current: Optional["Zygote"] = None


class ZygoteLost(RuntimeError):
    """The zygote itself ended (not a job): the job is run the plain way instead."""


class Zygote:
    def __init__(self, preload: list):
        self.proc = start([sys.executable, "-m", __name__, *preload], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True, bufsize=1)
        self.lock = threading.Lock()
        self.waiting: dict = {}  # id -> [threading.Event, (returncode, timed_out) or None]
        self.ids = itertools.count()
        ready, _, _ = select.select([self.proc.stdout], [], [], READY_TIMEOUT_S)
        if not ready or self.proc.stdout.readline().strip() != "ready":
            kill_group(self.proc)
            raise ZygoteLost("the zygote did not start")
        threading.Thread(target=self._read, name="ttbench-zygote-reader", daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            words = line.split()
            if len(words) == 4 and words[0] == "exited":
                with self.lock:
                    slot = self.waiting.get(int(words[1]))
                if slot is not None:
                    slot[1] = (int(words[2]), words[3] == "1")
                    slot[0].set()
        with self.lock:  # the zygote is gone: every job still waiting hears so
            for slot in self.waiting.values():
                slot[0].set()

    def run(self, target: dict, argv: list, timeout: float, env: dict, cwd: Optional[str] = None) -> Finished:
        """`target`: {"module": NAME} (as `python -m` runs it) or {"path": SCRIPT} (as `python -I` runs it)."""
        t0 = time.perf_counter()
        with temp_folder("ttbench-zygote-job-") as tmp:
            out, err = os.path.join(tmp, "stdout"), os.path.join(tmp, "stderr")
            job_id = next(self.ids)
            slot: list = [threading.Event(), None]
            request = {"id": job_id, **target, "argv": argv, "env": env, "cwd": cwd or os.getcwd(),
                       "out": out, "err": err, "timeout": timeout}
            with self.lock:
                self.waiting[job_id] = slot
                try:
                    self.proc.stdin.write(json.dumps(request) + "\n")
                    self.proc.stdin.flush()
                except (OSError, ValueError):
                    slot[0].set()
            answer_by = time.monotonic() + timeout + 120  # the zygote ends a job at its deadline: it answers
            while not slot[0].wait(WAIT_SLICE_S) and time.monotonic() < answer_by:
                if stopping():  # the run was interrupted: the job goes with the zygote, which its run closes
                    with self.lock:
                        del self.waiting[job_id]
                    raise Stopped("interrupted")
            with self.lock:
                del self.waiting[job_id]
            if slot[1] is None:
                raise ZygoteLost("the zygote ended while the job ran")
            returncode, timed_out = slot[1]
            texts = []
            for path in (out, err):
                try:
                    with open(path, errors="replace") as f:
                        texts.append(f.read())
                except OSError:
                    texts.append("")
            return Finished(returncode, texts[0], texts[1], timed_out, time.perf_counter() - t0)

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.proc.stdin.close()
        kill_group(self.proc)


@contextlib.contextmanager
def running(preload: list) -> Iterator[Optional[Zygote]]:
    """A zygote for the jobs run_module starts in this `with` block (None, and the plain way, where it cannot
    start). Start it from the thread that outlives the jobs (the kernel's death signal follows that thread)."""
    global _current
    try:
        zygote: Optional[Zygote] = Zygote(preload)
    except ZygoteLost:
        zygote = None
    previous, _current = _current, zygote
    try:
        yield zygote
    finally:
        _current = previous
        if zygote is not None:
            zygote.close()


def run_module(module: str, argv: list, timeout: float, env: dict) -> Finished:
    """`python -m MODULE ARGV...` to its end, forked from the run's zygote where one runs (run_once otherwise, or
    when the zygote itself was lost)."""
    return _forked_or_fresh({"module": module}, argv, timeout, env, None, [sys.executable, "-m", module, *argv])


def run_path(path: str, timeout: float, env: dict) -> Finished:
    """`python -I PATH` to its end in PATH's folder, forked from the run's zygote where one runs (run_once
    otherwise). A script forked from a zygote finds the zygote's imports done: its zygote must preload only what
    the script would import itself (never a module that changes what the script's own imports find)."""
    path = os.path.abspath(path)
    return _forked_or_fresh({"path": path}, [], timeout, env, os.path.dirname(path), [sys.executable, "-I", path])


def _forked_or_fresh(target: dict, argv: list, timeout: float, env: dict, cwd: Optional[str],
                     fresh: list) -> Finished:
    zygote = _current
    if zygote is not None:
        try:
            return zygote.run(target, argv, timeout, env, cwd)
        except ZygoteLost:
            pass
    return run_once(fresh, timeout, env=env, cwd=cwd)


# --- the zygote's side ----------------------------------------------------------------------------------------------

_started_in = os.getcwd()  # `python -m` put it first on the zygote's path; `python -I PATH` would not


def _serve(preload: list) -> None:
    watch_parent()  # the run that started it
    for name in preload:  # "module" or "module:function" (called once, after the import)
        module, _, function = name.partition(":")
        loaded = importlib.import_module(module)
        if function:
            getattr(loaded, function)()
    replies = forking_server_replies()  # nothing of the zygote's own, or a job's, reaches the replies
    os.write(replies, b"ready\n")
    jobs: dict = {}  # pid -> [id, deadline, timed_out]
    pending = b""  # read unbuffered: a line left in a file object's buffer is invisible to select
    open_input = True
    while open_input or jobs:
        ready, _, _ = select.select([0] if open_input else [], [], [], 0.1)
        if ready:
            data = os.read(0, 1 << 16)
            if not data:
                open_input = False  # the run is over: no new jobs; the running ones are ended
                for pid in jobs:
                    _end(pid)
            pending += data
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if line.strip():
                    request = json.loads(line)
                    pid = os.fork()
                    if pid == 0:
                        _job(request, replies)
                    jobs[pid] = [request["id"], time.monotonic() + float(request["timeout"]), False]
        now = time.monotonic()
        for pid, job in jobs.items():
            if not job[2] and now > job[1]:
                job[2] = True
                _end(pid)
        while jobs:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            job = jobs.pop(pid, None)
            if job is not None:
                os.write(replies, f"exited {job[0]} {os.waitstatus_to_exitcode(status)} {int(job[2])}\n".encode())


def _end(pid: int) -> None:
    """A job and everything it started (its session's group; the job itself too, should it not have made its
    session yet)."""
    for kill in (os.killpg, os.kill):
        with contextlib.suppress(OSError):
            kill(pid, signal.SIGKILL)


def _job(request: dict, replies: int) -> None:
    """In the forked copy: a session of its own, the job's environment, folder and output files, then the module
    as `python -m` runs it; never returns."""
    code = 1
    try:
        os.setsid()
        os.close(replies)
        forked_job_stdio(request["out"], request["err"])
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.environ.clear()
        os.environ.update(request["env"])
        os.environ[PARENT_ENV], os.environ[DEATHSIG_ENV] = str(os.getppid()), "1"  # dies with the zygote
        os.chdir(request["cwd"])
        try:
            if "path" in request:  # as `python -I PATH`: neither the zygote's folder nor the script's on the path
                sys.argv = [request["path"], *request["argv"]]
                sys.path[:] = [p for p in sys.path if p not in ("", _started_in)]
                runpy.run_path(request["path"], run_name="__main__")
            else:
                sys.argv = [request["module"], *request["argv"]]
                runpy.run_module(request["module"], run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: B902 - the job's own traceback, in its stderr file, as python -m would print it
        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


if __name__ == "__main__":
    _serve(sys.argv[1:])
