"""What every engine runs: a job (a module-level function and its arguments, returning a row), run once more when
its child was killed, and the row of a job an engine lost."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional


@dataclass(frozen=True)
class Job:
    fn: Callable  # module-level (Ray sends it by reference): fn(*args) -> row dict
    args: tuple
    timeout: float  # the job's own limit (fn enforces it on its child); the Ray engine allows RAY_SLACK_S more
    memory_bytes: Optional[int] = None  # a Ray resource request; the local engine does not enforce it


def run_with_retry(fn: Callable, args: tuple) -> dict:
    """fn(*args), once more if its child was killed (row["killed"]); the row says how many attempts it took."""
    row = fn(*args)
    attempts = 1
    if row.get("killed"):
        row = fn(*args)
        attempts = 2
    row["attempts"] = attempts
    return row


def lost_row(job: Job, why: str) -> dict:
    """The row of a job whose engine lost it: what the job was about (its first arguments), and why."""
    model, frontend = (list(job.args) + [None, None])[:2]
    return {"model": model, "frontend": frontend, "furthest": None, "failed_stage": "?", "error": why}
