"""Progress for long work, where the user is: a tqdm.auto bar in notebooks, a line on stderr in the CLI
(ProgressLine), and the framework warnings that are not the user's business kept out of their output."""
from __future__ import annotations

import contextlib
import sys
import threading
import time
import warnings


def in_notebook() -> bool:
    """Whether this process is a Jupyter kernel (JupyterLab, classic Notebook, VS Code)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    return type(shell).__name__ == "ZMQInteractiveShell"


def bar(total: int, desc: str, enabled: bool = True):
    """A progress bar that goes away when closed: a widget in notebooks (NotebookBar), a line on stderr elsewhere."""
    if enabled and in_notebook():
        return NotebookBar(total, desc)
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, disable=not enabled, leave=False)


class NotebookBar:
    """tqdm's notebook widget, with two things tqdm leaves undone: its elapsed time ticks while a step is silent
    (a stage can take 35 s with no update), and when it closes, finished or not, it leaves nothing behind, not even
    in the saved notebook (tqdm keeps an unfinished bar on screen in red, and the cell's saved output kept the
    first "0%" text of every bar)."""

    TICK_S = 1.0

    def __init__(self, total: int, desc: str):
        from IPython.display import display
        from tqdm.notebook import tqdm

        self.tqdm = tqdm(total=total, desc=desc, leave=False, display=False)
        self.handle = display(self.tqdm.container, display_id=True)
        self.stopped = threading.Event()
        threading.Thread(target=self._tick, name="ttbench-progress", daemon=True).start()

    def _tick(self) -> None:
        while not self.stopped.wait(self.TICK_S):
            self.tqdm.refresh()

    def __getattr__(self, name):  # update, set_description, set_postfix_str, n, total: tqdm's own
        if name == "tqdm":  # not made (its constructor raised): no recursion through this method
            raise AttributeError(name)
        return getattr(self.tqdm, name)

    def close(self) -> None:
        if self.stopped.is_set():
            return
        self.stopped.set()
        self.tqdm.total = self.tqdm.n  # so tqdm closes the widget instead of keeping it as a red "failed" bar
        self.tqdm.close()
        self.handle.update({"text/plain": ""}, raw=True)  # the saved output: nothing, not the first "0%"

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class StageBar:
    """bringup's progress callable for notebooks: one step per stage, the running stage and op counts in the bar."""

    def __init__(self, stages, model_name: str):
        self.bar = bar(len(stages), f"{model_name}: {stages[0]}")
        self.model_name, self.done = model_name, []

    def __call__(self, stage_name: str) -> None:
        self.bar.set_description(f"{self.model_name}: {stage_name}", refresh=True)

    def finished(self, stage) -> None:
        skipped = not stage.ok and (stage.error or "").startswith("skipped")
        state = str(len(stage.ops)) if stage.ok else "skipped" if skipped else "failed"
        self.done.append(f"{stage.name} {state}")
        self.bar.set_postfix_str(", ".join(self.done[-3:]), refresh=False)
        self.bar.update(1)

    def close(self) -> None:
        self.bar.close()


# torch's own deprecation notices raised from inside torch.export (not from the user's code: nothing for them to fix)
_FRAMEWORK_WARNINGS = [r"`isinstance\(treespec, LeafSpec\)` is deprecated"]


@contextlib.contextmanager
def quiet_framework_warnings():
    with warnings.catch_warnings():
        for message in _FRAMEWORK_WARNINGS:
            warnings.filterwarnings("ignore", message=message, category=FutureWarning)
        yield


class ProgressLine:
    """A progress line on stderr: which stage runs and for how long (ticking while a stage is silent: an 8B model's
    capture takes seconds), then each stage's op count as it ends."""

    TICK_S = 1.0  # on a terminal; a log gets a line every LOG_TICK_S instead
    LOG_TICK_S = 15.0

    def __init__(self, stages, stream=None):
        stream = stream or sys.stderr  # looked up now: whoever redirected it (a test, a notebook) gets the line
        self.stages, self.stream, self.t0 = list(stages), stream, time.perf_counter()
        self.tty = stream.isatty()
        self.current, self.since = None, self.t0
        self.lock, self.stop = threading.Lock(), threading.Event()
        self.ticker = threading.Thread(target=self._tick, daemon=True)
        self.ticker.start()

    def _line(self) -> str:
        i = self.stages.index(self.current) + 1 if self.current in self.stages else 0
        now = time.perf_counter()
        return (f"[{i}/{len(self.stages)}] {self.current:<10} {now - self.since:6.1f}s "
                f"(total {now - self.t0:.1f}s)")

    def _write(self, line: str, newline: bool) -> None:
        with self.lock:
            if self.tty:
                self.stream.write("\r" + line.ljust(60) + ("\n" if newline else ""))
            else:
                self.stream.write(line + "\n")
            self.stream.flush()

    def _tick(self) -> None:
        last = time.perf_counter()
        while not self.stop.wait(self.TICK_S):
            if self.current is None:
                continue
            if self.tty:
                self._write(self._line(), newline=False)
            elif time.perf_counter() - last >= self.LOG_TICK_S:
                last = time.perf_counter()
                self._write(self._line() + " still running", newline=True)

    def __call__(self, stage):
        self.current, self.since = stage, time.perf_counter()
        if self.tty:  # a log gets one line per stage, when it ends (or "still running" while it is slow)
            self._write(self._line(), newline=False)

    def finished(self, stage) -> None:
        if stage.error and stage.error.startswith("skipped"):
            return
        i = self.stages.index(stage.name) + 1 if stage.name in self.stages else 0
        what = f"{len(stage.ops)} ops" if stage.ok else "failed"
        if stage.meta.get("lock_wait_seconds"):
            what += f" (after {stage.meta['lock_wait_seconds']:.1f}s waiting for another compile)"
        now = time.perf_counter()
        self._write(f"[{i}/{len(self.stages)}] {stage.name:<10} {what}, {now - self.since:.1f}s "
                    f"(total {now - self.t0:.1f}s)", newline=True)

    def done(self):
        self.stop.set()
        self.current = None
        if self.tty:
            with self.lock:
                self.stream.write("\r" + " " * 60 + "\r")
                self.stream.flush()

