"""Temporary folders that outlive a call but not what holds them (a stage's flatbuffer, a file netron serves, a
run's files, an export being written).

A folder goes when its owner is garbage-collected, its `with` block ends, or the interpreter exits. Processes that
die without running their exit handlers (a notebook kernel killed at shutdown, a timed-out job) leave theirs
behind, so each folder carries ttbench's marker file holding the process id that made it and its pid namespace,
and the first new folder of a kind removes those whose process is gone. Only a folder with that marker (a plain
file, owned by this user, naming a dead process of this pid namespace) is ever removed: a user's
`.mnv2.old-2024-backup` beside `--out mnv2` looks like one by name and is left alone, and a private Ray cluster's
task (its own pid namespace, the same /tmp) keeps its folders while another ttbench runs beside it.
"""
from __future__ import annotations

import atexit
import contextlib
import glob
import os
import shutil
import tempfile
import weakref
from typing import Iterator, Optional

MARKER = ".ttbench-temp"  # in every temporary folder ttbench makes: the pid of the process that made it, its namespace
_swept: set = set()


def cache_dir() -> str:
    """ttbench's cache folder (TTBENCH_CACHE, else ~/.cache/ttbench): the user's own."""
    base = os.environ.get("TTBENCH_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "ttbench")
    os.makedirs(base, exist_ok=True)
    return base


def private_tmp() -> str:
    """The temp folder of every process ttbench starts that may load the Tenstorrent plugin (its TMPDIR): the
    plugin writes fixed names in the temp folder (its runtime assets, the system descriptor), which in a shared
    /tmp another user could own, or plant as symlinks. Mode 0700, this user's, never a link; made once and kept
    (the ~420 MB of runtime assets are unpacked there once)."""
    path = os.path.join(cache_dir(), "tmp")
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    info = os.lstat(path)
    if os.path.islink(path) or not os.path.isdir(path) or info.st_uid != os.getuid():
        raise PermissionError(f"{path} is not a folder of this user's: ttbench keeps its private temp files there")
    if info.st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


def temp_dir(prefix: str, directory: Optional[str] = None) -> str:
    """A new private folder `<directory>/<prefix><pid>-XXXX` (directory: the temp folder) with ttbench's marker."""
    path = tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=directory)
    with open(os.path.join(path, MARKER), "x") as f:
        f.write(f"{os.getpid()} {_pid_namespace()}")
    return path


def _pid_namespace() -> str:
    """This process's pid namespace ("pid:[4026531836]"): a pid means a process only inside it."""
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return "pid:[?]"


@contextlib.contextmanager
def temp_folder(prefix: str, directory: Optional[str] = None) -> Iterator[str]:
    """temp_dir for the length of a `with` block; a killed process's is reclaimed by the next (remove_orphans: one
    listing of the folder, cheap beside the work these folders are for)."""
    remove_orphans(prefix, directory)
    path = temp_dir(prefix, directory)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def scratch_dir(prefix: str, owner=None) -> str:
    """A new folder `<tmp>/<prefix><pid>-XXXX`, removed when `owner` is garbage-collected, or at interpreter exit
    (an owner-less one, or whatever is still alive then)."""
    if prefix not in _swept:
        _swept.add(prefix)
        remove_orphans(prefix)
    path = temp_dir(prefix)
    if owner is not None:
        weakref.finalize(owner, shutil.rmtree, path, ignore_errors=True)  # also runs at exit
    else:
        atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def remove_orphans(prefix: str, directory: Optional[str] = None) -> int:
    """Remove `<directory>/<prefix><pid>-*` folders that ttbench made (its marker names that pid) and whose
    process no longer runs (directory: the temp folder); -> how many."""
    removed, namespace = 0, _pid_namespace()
    for path in glob.glob(os.path.join(directory or tempfile.gettempdir(), f"{glob.escape(prefix)}*-*")):
        pid = os.path.basename(path)[len(prefix):].split("-", 1)[0]
        if pid.isdigit() and _marked_by(path, namespace) == (int(pid), namespace) and not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)
            removed += 1
    return removed


def _marked_by(path: str, namespace: str) -> Optional[tuple]:
    """(pid, pid namespace) in `path`'s marker (a marker of before the namespace was written: `namespace`, this
    process's): a folder (not a link) of this user's holding a plain marker file; else None."""
    try:
        if os.path.islink(path) or not os.path.isdir(path) or os.stat(path).st_uid != os.getuid():
            return None
        fd = os.open(os.path.join(path, MARKER), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not (info.st_mode & 0o170000 == 0o100000) or info.st_uid != os.getuid() or info.st_size > 64:
            return None
        text = os.read(fd, 64).decode("ascii", "replace").strip()
    finally:
        os.close(fd)
    pid, _, marked = text.partition(" ")
    return (int(pid), marked or namespace) if pid.isdigit() else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True
