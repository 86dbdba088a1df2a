"""Writing one file so that readers never see half of it, and never through a planted symlink.

The lowest rung of io/: renderers, the results database and export folders all write through here.
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import tempfile
from typing import Optional

from ..core import BadInput


def no_space(exc: BaseException, target: str) -> Optional[BadInput]:
    """A full disk (or quota) while writing `target`, said in one line; None for any other failure."""
    full = isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)
    # safetensors reports it as its own error around Rust's io::Error
    full = full or (not isinstance(exc, OSError) and ("StorageFull" in str(exc) or "No space left" in str(exc)))
    if not full:
        return None
    return BadInput(f"cannot write {target}: no space left on its disk; nothing was replaced, free some space "
                    f"or choose another place")


def write_text_atomic(path: str, text: str) -> str:
    """Write `text` to a new, unpredictable temporary file beside `path` (O_EXCL: never through a planted symlink)
    and rename it into place: readers never see half a file. A folder at `path` is bad input."""
    return _write_atomic(path, lambda f: f.write(text.encode()))


def write_npz_atomic(path: str, arrays: dict) -> str:
    """numpy's .npz of `arrays` (name -> array), written like write_text_atomic. The name is kept as given
    (numpy would append .npz to a path without it)."""
    import numpy as np

    return _write_atomic(path, lambda f: np.savez(f, **arrays))


def _write_atomic(path, write) -> str:
    path = os.fspath(path)
    directory = check_file_target(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.chmod(tmp, 0o666 & ~umask())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        full = no_space(exc, path)
        if full is not None:
            raise full from None
        raise
    return path


def check_file_target(path) -> str:
    """A file ttbench may write (an HTML page, a table): not a folder, in a folder the user can write.
    -> that folder. BadInput otherwise, before any work."""
    path = os.fspath(path)
    if os.path.isdir(path):
        raise BadInput(f"{path} is a folder: give a file path to write")
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory) or not os.access(directory, os.W_OK | os.X_OK):
        raise BadInput(f"cannot write {path}: {directory} is not a folder you can write")
    return directory


def umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


def check_page_folder(out: str, made_by: str, pages: tuple, keys: tuple, folders: tuple = ()) -> None:
    """Before any work: `out` may receive the status pages `pages` (and the folders `folders`, replaced whole) of a
    ttbench command only where none of them is there, or they are the pages that command wrote (its status.json,
    a JSON object `made_by` it, or, written before that field, with exactly its `keys`). A user's own status.md or
    repros/ are never replaced: BadInput, nothing touched."""
    if os.path.lexists(out) and not os.path.isdir(out):
        raise BadInput(f"--out {out} is not a folder")
    if not os.path.isdir(out):
        check_file_target(out)  # a new folder: its parent must be one the user can write
        return
    for name in pages + folders:
        if os.path.islink(os.path.join(out, name)):
            raise BadInput(f"{os.path.join(out, name)} is a symlink: ttbench writes only real files of --out")
    there = [n for n in pages + folders if os.path.lexists(os.path.join(out, n))]
    if there and not _written_by(os.path.join(out, "status.json"), made_by, keys):
        raise BadInput(f"{os.path.join(out, there[0])} is there and {out} holds no status.json of `{made_by}`: "
                       f"ttbench replaces only pages it wrote; choose another --out")
    check_file_target(os.path.join(out, pages[0]))


def _written_by(path: str, made_by: str, keys: tuple) -> bool:
    if not os.path.isfile(path) or os.path.islink(path) or os.path.getsize(path) > 256 << 20:
        return False
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and (data.get("made_by") == made_by or set(data) == set(keys))


def check_new_folder(path, what: str) -> str:
    """A folder that ttbench will create whole (`what` names it in the message): a new path, not a symlink, in a
    folder that can be written; checked before any work. -> absolute path"""
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path).strip():
        raise BadInput(f"{what} must be a path, got {path!r}")
    given = os.fspath(path)
    if os.path.lexists(given.rstrip(os.sep) or given):
        raise BadInput(f"{given} exists: {what} is written into a new folder; choose a new path")
    absolute = os.path.abspath(given)
    parent = os.path.dirname(absolute)
    if not os.path.isdir(parent) or not os.access(parent, os.W_OK | os.X_OK):
        raise BadInput(f"cannot make {given}: {parent} is not a folder you can write")
    return absolute


def replace_folder(target: str, files: dict) -> str:
    """A folder of `files` ({name: text}, plain names) made beside `target` and swapped in whole: readers see the
    old folder or the new one, never a mix. A symlink at `target` is bad input (it is never written through).
    -> target"""
    target = os.fspath(target)
    if os.path.islink(target) or os.path.lexists(target) and not os.path.isdir(target):
        raise BadInput(f"{target} is not a folder ttbench can replace (a symlink or a file): remove it or choose "
                       "another --out")
    parent = os.path.dirname(os.path.abspath(target))
    staging = tempfile.mkdtemp(prefix=f".{os.path.basename(target)}.", dir=parent)
    try:
        folder = os.path.join(staging, "new")
        os.mkdir(folder)
        for name, text in files.items():
            if os.path.basename(name) != name or name in ("", ".", ".."):
                raise ValueError(f"not a plain file name: {name!r}")
            with open(os.path.join(folder, name), "x", encoding="utf-8") as f:
                f.write(text)
        os.chmod(folder, 0o777 & ~umask())
        old = os.path.join(staging, "old")
        had = os.path.isdir(target)
        if had:
            os.rename(target, old)
        try:
            os.rename(folder, target)
        except BaseException:
            if had:  # the old folder goes back: never neither
                os.rename(old, target)
            raise
    except BaseException as exc:
        full = no_space(exc, target)
        if full is not None:
            raise full from None
        raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def publish_folder(source: str, target: str) -> str:
    """`source`'s files copied to the new folder `target` all at once (copied beside it, then renamed): never a
    half-written folder at `target`. -> target"""
    staging = tempfile.mkdtemp(prefix=".ttbench-", dir=os.path.dirname(target))
    try:
        shutil.copytree(source, os.path.join(staging, "folder"), symlinks=False)
        os.rename(os.path.join(staging, "folder"), target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target
