"""Temporary folders that outlive a call but not what holds them (a stage's flatbuffer, a file netron serves).

A folder goes when its owner is garbage-collected or the interpreter exits. Processes that die without running
their exit handlers (a notebook kernel killed at shutdown, a timed-out job) leave theirs behind, so each folder
carries its process id and the first new folder of a kind in a process removes those whose process is gone.
"""
from __future__ import annotations

import atexit
import glob
import os
import shutil
import tempfile
import weakref

_swept: set = set()


def scratch_dir(prefix: str, owner=None) -> str:
    """A new folder `<tmp>/<prefix><pid>-XXXX`, removed when `owner` is garbage-collected, or at interpreter exit
    (an owner-less one, or whatever is still alive then)."""
    if prefix not in _swept:
        _swept.add(prefix)
        remove_orphans(prefix)
    path = tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-")
    if owner is not None:
        weakref.finalize(owner, shutil.rmtree, path, ignore_errors=True)  # also runs at exit
    else:
        atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def remove_orphans(prefix: str, directory: str = None) -> int:
    """Remove `<directory>/<prefix><pid>-*` folders whose process no longer runs (directory: the temp folder);
    -> how many."""
    removed = 0
    for path in glob.glob(os.path.join(directory or tempfile.gettempdir(), f"{glob.escape(prefix)}*-*")):
        pid = os.path.basename(path)[len(prefix):].split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)
            removed += 1
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True
