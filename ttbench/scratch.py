"""Temporary folders that outlive a call but not what holds them (a stage's flatbuffer, a file netron serves)."""
from __future__ import annotations

import atexit
import shutil
import tempfile
import weakref


def scratch_dir(prefix: str, owner=None) -> str:
    """A new folder under the system temp dir, removed when `owner` is garbage-collected, or at interpreter exit
    (an owner-less one, or whatever is still alive then)."""
    path = tempfile.mkdtemp(prefix=prefix)
    if owner is not None:
        weakref.finalize(owner, shutil.rmtree, path, ignore_errors=True)  # also runs at exit
    else:
        atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path
