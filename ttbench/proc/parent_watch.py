"""Exit when the process that started this one is gone. A plain module with no imports from ttbench, so the
worker scripts (tt_worker.py, mlir_worker.py), which must not import the package (it imports torch), can use it
from their own folder; ttbench.proc.children.watch_parent is the same function."""
import ctypes
import os
import signal
import threading
import time

PARENT_ENV = "TTBENCH_PARENT_PID"
DEATHSIG_ENV = "TTBENCH_DIE_WITH_PARENT"  # set when the parent spawned us from its main thread


def watch_parent(interval: float = 0.5) -> None:
    expected = os.environ.get(PARENT_ENV, "")
    if not expected.isdigit():
        return
    if os.environ.get(DEATHSIG_ENV) == "1" and os.uname().sysname == "Linux":
        # The kernel's SIGKILL when the parent dies. It follows the thread that spawned us, hence only for spawns
        # from the parent's main thread. Set here rather than between fork and exec in the parent: a preexec_fn
        # makes every spawn fork the whole parent (30 ms for a 600 MB process instead of 0.3 ms).
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != int(expected):  # the parent died before the signal was armed
        os._exit(70)

    def loop():
        while True:
            if os.getppid() != int(expected):
                os._exit(70)
            time.sleep(interval)

    threading.Thread(target=loop, name="ttbench-parent-watch", daemon=True).start()
