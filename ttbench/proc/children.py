"""Child processes that die with their parent, and work run in a forked copy of this process.

Workers run in their own session (a crash or Ctrl-C in the parent's terminal stays theirs), so nothing kills them
when the parent dies: a SIGKILLed `ttbench bringup` used to leave its Tenstorrent compile running, re-parented and
without the lock. Every worker calls parent_watch.watch_parent (a plain module the worker scripts import too): the
kernel's SIGKILL on the parent's death (PR_SET_PDEATHSIG, only for spawns from the main thread: the signal follows
the spawning thread), and a watchdog that exits when the parent pid changes.
"""
from __future__ import annotations

import contextlib
import ctypes
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Optional

from .parent_watch import DEATHSIG_ENV, PARENT_ENV, watch_parent  # noqa: F401 - watch_parent: for workers
from .scratch import remove_orphans, temp_dir
_PR_SET_PDEATHSIG = 1
# Set (to "1") in the environment of a process that is itself a disposable job (a sweep or tracker job): its crash
# or hang is already that job's row, so work ttbench would contain in a fork or a pass worker runs in it instead.
DISPOSABLE_JOB_ENV = "TTBENCH_DISPOSABLE_JOB"


def in_disposable_job() -> bool:
    """This process is a disposable job (see DISPOSABLE_JOB_ENV); never true in a notebook or the CLI."""
    return os.environ.get(DISPOSABLE_JOB_ENV) == "1"


def spawn_options(env: dict = None) -> dict:
    """Keyword arguments for subprocess.Popen/run: own session, dies with this process."""
    from_main = threading.current_thread() is threading.main_thread()
    return {"start_new_session": True, "env": {**(os.environ if env is None else env), PARENT_ENV: str(os.getpid()),
                                               DEATHSIG_ENV: "1" if from_main else "0"}}


def start(cmd: list, env: Optional[dict] = None, **popen_kwargs) -> subprocess.Popen:
    """A long-lived child (a worker, a server): in its own session, dying with this process."""
    return subprocess.Popen(cmd, **popen_kwargs, **spawn_options(env))


def kill_group(proc: subprocess.Popen) -> None:
    """Kill a child started with spawn_options and everything it started (its session's process group); reap it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def _wait(proc: subprocess.Popen, timeout: float) -> None:
    """proc.wait(timeout) in slices, so that a stoppable_pool being left kills the child at once (Stopped)."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        try:
            proc.wait(timeout=max(0.0, min(WAIT_SLICE_S, left)))
            return
        except subprocess.TimeoutExpired:
            if _stopping.is_set():
                kill_group(proc)
                raise Stopped("interrupted") from None
            if left <= WAIT_SLICE_S:
                raise


@dataclass
class Finished:
    """How a run_once child ended: its exit code (negative: the signal that ended it, SIGKILL when it ran out of
    time), whether the deadline passed, its output and the time taken."""

    returncode: int
    stdout: str
    stderr: str
    timed_out: bool
    seconds: float

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out


def run_once(cmd: list, timeout: float, env: Optional[dict] = None, cwd: Optional[str] = None,
             merge_stderr: bool = False, stdin_text: Optional[str] = None) -> Finished:
    """Run one child process to its end, in its own session and dying with this process. On timeout the whole
    process group goes (subprocess.run would kill only the child, leaving what it started running). Output goes
    through temporary files, so a chatty child never blocks on a full pipe."""
    t0 = time.perf_counter()
    with tempfile.TemporaryFile(mode="w+") as out, tempfile.TemporaryFile(mode="w+") as err, \
            tempfile.TemporaryFile(mode="w+") as given:
        given.write(stdin_text or "")
        given.seek(0)
        proc = start(cmd, env, stdin=given if stdin_text is not None else subprocess.DEVNULL, stdout=out,
                     stderr=subprocess.STDOUT if merge_stderr else err, text=True, cwd=cwd)
        timed_out = False
        try:
            _wait(proc, timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            kill_group(proc)
        out.seek(0)
        err.seek(0)
        return Finished(proc.returncode, out.read(), err.read(), timed_out, time.perf_counter() - t0)


class Stopped(RuntimeError):
    """The run this child belonged to was interrupted (Ctrl-C): the child was killed and has no result."""


# Set while a stoppable_pool is left by an exception: the children its threads wait on are killed at once.
_stopping = threading.Event()
WAIT_SLICE_S = 0.2


def stopping() -> bool:
    return _stopping.is_set()


@contextlib.contextmanager
def stoppable_pool(workers: int):
    """A thread pool whose threads wait on child processes (run_once, the zygote's jobs). Left by an exception,
    Ctrl-C above all, it cancels the work not started and kills the children its threads wait on, then waits for
    its threads (a second at most), where a plain pool would let every started job run to its end first: the jobs
    are in sessions of their own, which the terminal's SIGINT never reaches."""
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        yield pool
    except BaseException:
        _stopping.set()
        try:
            pool.shutdown(wait=True, cancel_futures=True)
        finally:
            _stopping.clear()
        raise
    pool.shutdown(wait=True)


class ContainedFailure(RuntimeError):
    """Work run in a forked copy of this process crashed (a signal) or did not finish in time."""


class Forked:
    """fn() running in a forked copy of this process (started at once); `result()` waits for it and hands its
    result back (pickled), so user code that aborts, segfaults or hangs (a model, a custom op) cannot take the
    notebook kernel with it. The copy runs torch single-threaded: OpenMP's thread pool does not survive fork."""

    def __init__(self, fn, timeout: float, what: str):
        self.fn, self.timeout, self.what, self.pid = fn, timeout, what, None
        if not hasattr(os, "fork") or in_disposable_job():  # run in result(), here: see DISPOSABLE_JOB_ENV
            return
        remove_orphans("ttbench-fork-")
        self.tmp = temp_dir("ttbench-fork-")
        self.out = os.path.join(self.tmp, "result.pickle")
        self.deadline = time.monotonic() + timeout
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:
            self._child()
        try:
            os.setpgid(self.pid, self.pid)  # a group of its own (also set in the child: whichever runs first)
        except OSError:
            pass  # the child already made it, or already ended

    def _child(self) -> None:
        """Run, write, leave without running the parent's exit handlers."""
        import torch

        code = 1
        try:
            os.setpgid(0, 0)  # what the user's code starts stays in this group, which the parent ends with us
            if sys.platform.startswith("linux"):  # the forking thread waits for us in result(): it outlives us

                ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
            torch.set_num_threads(1)
            result = ("ok", self.fn())
            code = 0
        except BaseException as exc:  # noqa: B902 - everything goes back to the parent
            try:
                pickle.dumps(exc)
                result = ("raised", exc)
            except Exception:
                result = ("raised", RuntimeError(f"{type(exc).__name__}: {exc}"))
        try:
            with open(self.out, "wb") as f:
                pickle.dump(result, f, protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException as exc:  # the result itself would not pickle: say so instead
            with open(self.out, "wb") as f:
                pickle.dump(("raised", RuntimeError(f"the result could not be handed back: {exc}")), f)
        os._exit(code)

    def result(self):
        """fn's result; fn's exception raised again here; ContainedFailure on a crash or past the timeout."""
        if self.pid is None:  # no fork on this platform, or this process is itself a disposable job: run it here
            return self.fn()
        try:
            while True:
                done, status = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    break
                if time.monotonic() > self.deadline:
                    os.kill(self.pid, signal.SIGKILL)
                    os.waitpid(self.pid, 0)
                    raise ContainedFailure(f"{self.what} did not finish in {self.timeout:g} s (stopped)")
                time.sleep(0.01)
            if os.WIFSIGNALED(status):
                raise ContainedFailure(f"{self.what} crashed ({signal.Signals(os.WTERMSIG(status)).name})")
            if not os.path.isfile(self.out):
                raise ContainedFailure(f"{self.what} ended (exit {os.WEXITSTATUS(status)}) without a result")
            with open(self.out, "rb") as f:
                kind, value = pickle.load(f)  # written by our own child, above
        finally:
            self._end_group()
            shutil.rmtree(self.tmp, ignore_errors=True)
        if kind == "raised":
            raise value
        return value


    def _end_group(self) -> None:
        """Stop whatever the user's code started in the copy and left running (a model whose forward forks): the
        copy's process group goes with it."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass  # nothing left in the group


def call_in_fork(fn, timeout: float, what: str):
    """fn() in a forked copy of this process, waited for (see Forked)."""
    return Forked(fn, timeout, what).result()
