"""Child processes that die with their parent.

Workers run in their own session (a crash or Ctrl-C in the parent's terminal stays theirs), so nothing kills them
when the parent dies: a SIGKILLed `ttbench bringup` used to leave its Tenstorrent compile running, re-parented and
without the lock. Two guards: the kernel sends the child SIGKILL when its parent dies (PR_SET_PDEATHSIG, set only
when spawning from the main thread: the signal follows the spawning *thread*), and the child's own watchdog exits
when its parent pid changes (`TTBENCH_PARENT_PID`; tt_worker.py carries a copy, as it imports nothing of ttbench).
"""
from __future__ import annotations

import os
import signal
import sys
import threading
import time

PARENT_ENV = "TTBENCH_PARENT_PID"
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


def watch_parent(interval: float = 0.5) -> None:
    """In a worker: exit as soon as the process that started it is gone."""
    expected = os.environ.get(PARENT_ENV)
    if not expected or not expected.isdigit():
        return

    def loop():
        while True:
            if os.getppid() != int(expected):
                os._exit(70)
            time.sleep(interval)

    threading.Thread(target=loop, name="ttbench-parent-watch", daemon=True).start()
