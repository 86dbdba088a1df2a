"""Progress for long work, where the user is: a tqdm.auto bar in notebooks (the CLI has its own line, cli.Progress),
and the framework warnings that are not the user's business kept out of their output."""
from __future__ import annotations

import contextlib
import sys
import warnings


def in_notebook() -> bool:
    """Whether this process is a Jupyter kernel (JupyterLab, classic Notebook, VS Code)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    return type(shell).__name__ == "ZMQInteractiveShell"


def bar(total: int, desc: str, enabled: bool = True):
    """A tqdm.auto bar (a widget in notebooks, a line on stderr elsewhere) that goes away when closed."""
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, disable=not enabled, leave=False)


class StageBar:
    """bringup's progress callable for notebooks: one step per stage, the running stage and op counts in the bar."""

    def __init__(self, stages, model_name: str):
        self.bar = bar(len(stages), f"{model_name}: {stages[0]}")
        self.model_name, self.done = model_name, []

    def __call__(self, stage_name: str) -> None:
        self.bar.set_description(f"{self.model_name}: {stage_name}", refresh=True)

    def finished(self, stage) -> None:
        self.done.append(f"{stage.name} {len(stage.ops)}" if stage.ok else f"{stage.name} failed")
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
