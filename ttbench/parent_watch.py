"""Exit when the process that started this one is gone. A plain module with no imports from ttbench, so the
worker scripts (tt_worker.py, mlir_worker.py), which must not import the package (it imports torch), can use it
from their own folder; ttbench.children.watch_parent is the same function."""
import os
import threading
import time

PARENT_ENV = "TTBENCH_PARENT_PID"


def watch_parent(interval: float = 0.5) -> None:
    expected = os.environ.get(PARENT_ENV, "")
    if not expected.isdigit():
        return

    def loop():
        while True:
            if os.getppid() != int(expected):
                os._exit(70)
            time.sleep(interval)

    threading.Thread(target=loop, name="ttbench-parent-watch", daemon=True).start()
