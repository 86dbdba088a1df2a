"""Work in a forked copy of this process, under a deadline, so that a native abort or a hang inside it is a result
and not the end of the caller. A plain module with no imports from ttbench: bare_route.py, which must not import the
package, takes it from this folder (children.Forked is the package's own form, which hands a result back)."""
import os
import signal
import sys
import time
from typing import Callable, Optional


def in_fork(work: Callable[[], None], timeout: float) -> Optional[str]:
    """work() in a forked copy (it leaves its result where the caller will look); None when the copy ended
    normally, else why not: "crashed (SIGABRT)", "timed out after 180 s", "ended (exit 1)"."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            work()
            code = 0
        finally:
            os._exit(code)  # never the parent's exit handlers
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return f"timed out after {timeout:g} s"
        time.sleep(0.01)
    if os.WIFSIGNALED(status):
        return f"crashed ({signal.Signals(os.WTERMSIG(status)).name})"
    code = os.WEXITSTATUS(status)
    return None if code == 0 else f"ended (exit {code})"
