"""Child processes that die with their parent.

Workers run in their own session (a crash or Ctrl-C in the parent's terminal stays theirs), so nothing kills them
when the parent dies: a SIGKILLed `ttbench bringup` used to leave its Tenstorrent compile running, re-parented and
without the lock. Two guards: the kernel sends the child SIGKILL when its parent dies (PR_SET_PDEATHSIG, set only
when spawning from the main thread: the signal follows the spawning *thread*), and the child's own watchdog exits
when its parent pid changes (`TTBENCH_PARENT_PID`, parent_watch.py: a plain module the worker scripts import too).
"""
from __future__ import annotations

import os
import signal
import sys
import threading
import time

from .parent_watch import PARENT_ENV, watch_parent  # noqa: F401 - watch_parent is this module's, for workers
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # runs in the child between fork and exec
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def spawn_options(env: dict = None) -> dict:
    """Keyword arguments for subprocess.Popen/run: own session, dies with this process."""
    options = {"start_new_session": True, "env": {**(os.environ if env is None else env),
                                                  PARENT_ENV: str(os.getpid())}}
    if sys.platform.startswith("linux") and threading.current_thread() is threading.main_thread():
        options["preexec_fn"] = _die_with_parent
    return options


class ContainedFailure(RuntimeError):
    """Work run in a forked copy of this process crashed (a signal) or did not finish in time."""


def call_in_fork(fn, timeout: float, what: str):
    """fn() run in a forked copy of this process, its result handed back (pickled), so that user code
    that aborts, segfaults or hangs (a model, a custom op) cannot take the notebook kernel with it.
    -> fn's result; fn's exception is raised again here; ContainedFailure on a crash or after `timeout` s.
    The copy runs torch single-threaded: OpenMP's thread pool does not survive fork (the child would hang)."""
    import pickle
    import tempfile

    import torch

    if not hasattr(os, "fork"):
        return fn()
    from .scratch import remove_orphans

    remove_orphans("ttbench-fork-")
    with tempfile.TemporaryDirectory(prefix=f"ttbench-fork-{os.getpid()}-") as tmp:
        out = os.path.join(tmp, "result.pt")
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: run, write, leave without running the parent's exit handlers
            code = 1
            try:
                if sys.platform.startswith("linux"):
                    _die_with_parent()  # the forking thread waits for us: it only ends with its process
                torch.set_num_threads(1)
                result = ("ok", fn())
                code = 0
            except BaseException as exc:  # noqa: B902 - everything goes back to the parent
                try:
                    pickle.dumps(exc)
                    result = ("raised", exc)
                except Exception:
                    result = ("raised", RuntimeError(f"{type(exc).__name__}: {exc}"))
            try:
                with open(out, "wb") as f:
                    pickle.dump(result, f, protocol=pickle.HIGHEST_PROTOCOL)
            except BaseException as exc:  # the result itself would not pickle: say so instead
                with open(out, "wb") as f:
                    pickle.dump(("raised", RuntimeError(f"the result could not be handed back: {exc}")), f)
            os._exit(code)
        deadline = time.monotonic() + timeout
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                raise ContainedFailure(f"{what} did not finish in {timeout:g} s (stopped)")
            time.sleep(0.01)
        if os.WIFSIGNALED(status):
            raise ContainedFailure(f"{what} crashed ({signal.Signals(os.WTERMSIG(status)).name})")
        if not os.path.isfile(out):
            raise ContainedFailure(f"{what} ended (exit {os.WEXITSTATUS(status)}) without a result")
        with open(out, "rb") as f:
            kind, value = pickle.load(f)  # written by our own child, above
    if kind == "raised":
        raise value
    return value
