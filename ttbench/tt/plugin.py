"""Everything that talks to the Tenstorrent PJRT plugin, always from a child process.

The plugin aborts its process on fatal errors and brings its own MLIR, so the parent never loads it. Without a
chip it compiles against a system descriptor that ttbench makes once, by starting the plugin on a mock
single-chip Blackhole P150 cluster, and caches under ~/.cache/ttbench (with the tt-metal cache).
"""
from __future__ import annotations

import contextlib
import fcntl
import glob
import os
import re
import shutil
import sys
import time
from dataclasses import dataclass, field
from typing import Optional

from .. import optional
from ..core import CompilerFailure, env_seconds
from ..ir.locations import LocTable, user_frame
from ..proc.array_files import load_arrays, save_arrays
from ..proc.children import run_once
from ..proc.client import WorkerClient, WorkerDied
from ..proc.scratch import cache_dir, private_tmp, temp_dir
from .compile_service import compile_served, running as running_service

DEFAULT_TIMEOUT_S = env_seconds("TTBENCH_TT_TIMEOUT", 900.0)
DESCRIPTOR_NAME = "blackhole_p150.ttsys"
WORKER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "proc", "tt_worker.py")
TARGET_COMPILE_ONLY = "compiled for Blackhole P150, compile-only: no device"
TARGET_DEVICE = "compiled for the Tenstorrent device found on this machine"


class PluginError(CompilerFailure):
    pass


def mock_cluster_yaml() -> str:
    """Cluster descriptor of one Blackhole P150 board on PCIe, as tt-metal's mock cluster reads it."""
    harvesting = {"noc_translation": "true", "harvest_mask": 192, "dram_harvesting_mask": 0,
                  "eth_harvesting_mask": 288, "pcie_harvesting_mask": 2, "l2cpu_harvesting_mask": 0}
    lines = ["arch:", "  0: blackhole", "chips:", "  {}", "chip_unique_ids:", "  0: 4476187513037",
             "ethernet_connections:", "  []", "ethernet_connections_to_remote_devices:", "  []",
             "chips_with_mmio:", "  - 0: 0", "io_device_type: PCIe", "harvesting:", "  0:"]
    lines += [f"    {k}: {v}" for k, v in harvesting.items()]
    lines += ["chip_to_bus_id:", '  0: "0x01"', "boards:", "  -", "    - board_id: 4402341478400",
              "    - board_type: p150", "    - chips:", "        - 0", "asic_locations:", "  0: 0",
              "chip_pci_bdfs:", "  0: 0000:01:00.0"]
    return "\n".join(lines) + "\n"


def _child_env(extra: dict) -> dict:
    env = dict(os.environ)
    env.pop("JAX_PLATFORMS", None)
    env.setdefault("TT_METAL_CACHE", os.path.join(cache_dir(), "tt-metal"))
    env["TMPDIR"] = private_tmp()  # the plugin's fixed names (runtime assets, descriptor) land in the user's own
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


@dataclass
class ChildResult:
    ok: bool
    returncode: Optional[int]
    log: str
    seconds: float  # the child's own time, after the lock was taken
    timed_out: bool = False
    lock_wait_seconds: float = 0.0  # waiting for another process's Tenstorrent compile to release the plugin lock


# The plugin keeps its system descriptor at one fixed path (/tmp/tt_pjrt_system_descriptor) and deletes it when a
# client shuts down, so two plugin processes break each other's compiles ("system desc does not exist"). Every
# ttbench process takes this lock around a plugin child, and around any other process's loading of the plugin
# library (see run/worker.py). It lives in the user's cache folder, not in /tmp: a shared file there belonged to
# whoever made it first (everyone else got "Permission denied") and could be a planted symlink.
def plugin_lock_path() -> str:
    return os.path.join(cache_dir(), "tt-plugin.lock")


def lock_holder(fd: int) -> Optional[int]:
    """The pid written into the lock file by the process holding it, if any."""
    try:
        text = os.pread(fd, 32, 0).decode(errors="replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


@contextlib.contextmanager
def plugin_lock(timeout: float, on_wait=None):
    """Hold the plugin lock (yields True), or give up after `timeout` s (yields False). `on_wait(pid)` is called
    once when another process holds it (default: a line on stderr), so a wait never looks like a hang."""
    fd = os.open(plugin_lock_path(), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        deadline = time.monotonic() + timeout
        told = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not told:
                    told = True
                    (on_wait or _say_waiting)(lock_holder(fd))
                if time.monotonic() > deadline:
                    yield False
                    return
                time.sleep(0.2)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        try:
            yield True
        finally:
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _say_waiting(pid: Optional[int]) -> None:
    who = f" (pid {pid})" if pid else ""
    print(f"ttbench: waiting for another Tenstorrent compile{who} to finish", file=sys.stderr, flush=True)


def run_worker(args: list, env: dict, timeout: float) -> ChildResult:
    """Run tt_worker.py ARGS in its own process group; kill it whole on timeout. The worker runs as a plain
    script so the child never imports ttbench (and with it torch): that would add a second to every compile."""
    t0 = time.perf_counter()
    waited_for = []
    with plugin_lock(timeout, on_wait=lambda pid: (waited_for.append(pid), _say_waiting(pid))) as locked:
        waited = time.perf_counter() - t0
        if not locked:
            who = f" (pid {waited_for[0]})" if waited_for and waited_for[0] else ""
            return ChildResult(ok=False, returncode=None, seconds=0.0, timed_out=True, lock_wait_seconds=waited,
                               log=f"timed out after {timeout:g} s waiting for another Tenstorrent "
                                   f"compile{who} to finish")
        # cwd: tt-metal writes a `generated/` folder into the working directory; keep it out of the user's.
        done = run_once([sys.executable, WORKER, *[os.path.abspath(a) if os.path.exists(a) else a for a in args]],
                        timeout, env=_child_env(env), cwd=cache_dir(), merge_stderr=True)
    return ChildResult(ok=done.ok, returncode=done.returncode, log=done.stdout,
                       seconds=time.perf_counter() - t0 - waited, timed_out=done.timed_out,
                       lock_wait_seconds=waited if waited_for else 0.0)


def system_descriptor(timeout: float = 300) -> Optional[str]:
    """Path of the cached compile-only descriptor (made on first use), or None where a real chip is present."""
    if optional.tt_device_count() > 0:
        return None
    path = os.path.join(cache_dir(), DESCRIPTOR_NAME)
    if os.path.isfile(path):
        return path
    work = temp_dir("ttbench-desc-", cache_dir())
    try:
        cluster = os.path.join(work, "cluster_desc.yaml")
        with open(cluster, "w") as f:
            f.write(mock_cluster_yaml())
        out = os.path.join(work, DESCRIPTOR_NAME)
        result = run_worker(["descriptor", out], {"TT_METAL_MOCK_CLUSTER_DESC_PATH": cluster}, timeout)
        if not result.ok or not os.path.isfile(out):
            raise PluginError("could not make the Blackhole P150 system descriptor on a mock cluster: "
                              + (unpack_failure(result.log) or last_meaningful_lines(result.log, 3)))
        os.replace(out, path)  # atomic: a concurrent maker loses nothing
        return path
    finally:
        shutil.rmtree(work, ignore_errors=True)


def compile_service():
    """A compile service (compile_service.py) for the jobs of a run, with this machine's compile settings: a
    context manager, or None where the plugin cannot compile here (each job then says why)."""
    if not optional.tt_plugin().available:
        return None
    try:
        descriptor = system_descriptor()
    except PluginError:
        return None
    env = _child_env({"TT_COMPILE_ONLY_SYSTEM_DESC": descriptor} if descriptor else {})
    return running_service([sys.executable, WORKER, "serve"], env,
                           lambda timeout: plugin_lock(timeout, on_wait=lambda pid: None))


def run_script(path: str, timeout: float):
    """Someone else's script that loads the plugin (the tracker's reproductions: they never import ttbench), run
    in a fresh interpreter with this machine's compile-only settings, under the plugin lock -> run_once's Finished,
    or None when another compile held the lock for `timeout` s."""
    descriptor = system_descriptor()
    env = _child_env({"TT_COMPILE_ONLY_SYSTEM_DESC": descriptor} if descriptor else {})
    with plugin_lock(timeout) as locked:
        if not locked:
            return None
        path = os.path.abspath(path)
        return run_once([sys.executable, "-I", path], timeout, env=env, cwd=os.path.dirname(path))


@dataclass
class Compiled:
    ok: bool
    error: Optional[str]
    target: str
    seconds: float
    files: dict = field(default_factory=dict)  # "ttir" / "ttnn" / "flatbuffer" -> path
    log: str = ""
    outputs: Optional[list] = None  # numpy arrays, when a CompileSession also executed (a chip is present)
    lock_wait_seconds: float = 0.0  # before `seconds`: waiting for another process's compile (not compile time)


# What the plugin says when its runtime archive cannot be unpacked: a race with another process unpacking it (it
# shared /tmp before every plugin process had its own TMPDIR), or no room for it: never a failure of the compiler.
RUNTIME_RACE = "failed to extract embedded tt-metal runtime archive"
RUNTIME_UNPACKED_MB = 420  # jax-tt-plugin 0.1.3's runtime assets, measured unpacked (du)


def unpack_failure(log: str) -> Optional[str]:
    """Why the plugin could not unpack its runtime, in a line that says what to do, or None when it did."""
    if RUNTIME_RACE not in log:
        return None
    folder = private_tmp()
    free_mb = shutil.disk_usage(folder).free / 2**20
    if free_mb < RUNTIME_UNPACKED_MB * 1.2:
        return (f"no room to unpack the Tenstorrent plugin's runtime (~{RUNTIME_UNPACKED_MB} MB) into {folder}: "
                f"{free_mb:.0f} MB free there; free some space (or point TTBENCH_CACHE elsewhere) and run again. "
                "Not a compiler failure")
    return ("the Tenstorrent plugin could not unpack its runtime (another program was unpacking it at the same "
            "moment?); not a compiler failure: run again")


def compile_stablehlo(text: str, workdir: str, timeout: float = DEFAULT_TIMEOUT_S,
                      optimization_level: Optional[int] = None) -> Compiled:
    """Hand StableHLO text to the plugin in a child process; collect the TTIR, TTNN and flatbuffer it exports (and
    the performance metrics, when an optimization level is given: None leaves the plugin's default, level 0)."""
    piece = optional.tt_plugin()
    if not piece.available:
        return Compiled(False, f"Tenstorrent compiler plugin not available: {piece.hint}", "", 0.0)
    try:
        descriptor = system_descriptor()
    except PluginError as exc:
        return Compiled(False, str(exc), "", 0.0)
    env = {"TT_COMPILE_ONLY_SYSTEM_DESC": descriptor} if descriptor else {}
    target = TARGET_COMPILE_ONLY if descriptor else TARGET_DEVICE
    source = os.path.join(workdir, "input.stablehlo.mlir")
    with open(source, "w") as f:
        f.write(text)
    export = os.path.join(workdir, "export")
    served = compile_served(source, export, optimization_level, timeout)
    if served is not None and served.get("ok"):  # a job of a run with a compile service: only its successes count
        return Compiled(True, None, target, served["seconds"], collect_exports(export),
                        lock_wait_seconds=served["lock_wait_seconds"])
    if served is not None:
        shutil.rmtree(export, ignore_errors=True)  # the service's failed try: the one-shot compile writes anew
    command = ["compile", source, export] + ([str(optimization_level)] if optimization_level is not None else [])
    result = run_worker(command, env, timeout)
    waited = result.lock_wait_seconds
    if not result.ok and RUNTIME_RACE in result.log:  # another program unpacked the runtime at that moment: again
        result = run_worker(command, env, timeout)
        waited += result.lock_wait_seconds
    files = collect_exports(export)
    if result.timed_out:
        why = result.log if result.returncode is None else f"timed out after {timeout:g} s"
        error = why
    elif not result.ok and RUNTIME_RACE in result.log:
        error = unpack_failure(result.log)
    elif not result.ok:
        why = "aborted" if (result.returncode or 0) < 0 else f"failed (exit {result.returncode})"
        where = stopped_at(result.log)
        lead = f"stopped at {where}; " if where else ""
        error = f"{lead}compiler {why}: {last_meaningful_lines(result.log)}"
    else:
        error = None
    return Compiled(error is None, error, target, result.seconds, files, result.log, lock_wait_seconds=waited)


class CompileSession:
    """Many compiles through one long-lived plugin process (tt_worker.py serve): the plugin starts once (seconds)
    instead of once per module. The session holds the machine-wide plugin lock from start to close, so no other
    plugin process can delete the descriptor under it; a worker that crashes or hangs on one module is reported
    as that module's error and replaced on the next compile. Use as a context manager."""

    def __init__(self, lock_timeout: float = DEFAULT_TIMEOUT_S):
        self.lock_timeout = lock_timeout
        self.client = None
        self.target = ""
        self._stack = contextlib.ExitStack()

    def __enter__(self):
        piece = optional.tt_plugin()
        if not piece.available:
            raise PluginError(f"Tenstorrent compiler plugin not available: {piece.hint}")
        descriptor = system_descriptor()  # before the lock: making it takes the lock itself
        waited_for = []
        locked = self._stack.enter_context(plugin_lock(self.lock_timeout, on_wait=lambda pid: (
            waited_for.append(pid), _say_waiting(pid))))
        if not locked:
            who = f" (pid {waited_for[0]})" if waited_for and waited_for[0] else ""
            self._stack.close()
            raise PluginError(f"timed out after {self.lock_timeout:g} s waiting for another Tenstorrent compile{who} "
                              "to finish")
        env = _child_env({"TT_COMPILE_ONLY_SYSTEM_DESC": descriptor} if descriptor else {})
        self.target = TARGET_COMPILE_ONLY if descriptor else TARGET_DEVICE
        self.executes = descriptor is None
        self.client = WorkerClient("tt", start_timeout=300, command=[sys.executable, WORKER, "serve"], env=env,
                                   cwd=cache_dir())  # cwd: see run_worker
        self._stack.callback(self.client.close)
        return self

    def __exit__(self, *exc):
        self._stack.close()

    def compile(self, text: str, workdir: str, timeout: float, inputs: Optional[list] = None) -> Compiled:
        """StableHLO text -> Compiled (files exported under `workdir`); with `inputs` (numpy arrays) and a chip,
        it also executes and returns the outputs."""
        source, export = os.path.join(workdir, "input.stablehlo.mlir"), os.path.join(workdir, "export")
        feeds = os.path.join(workdir, "inputs.npz") if inputs is not None and self.executes else None
        results = os.path.join(workdir, "outputs.npz")
        with open(source, "w") as f:
            f.write(text)
        if feeds:
            save_arrays(feeds, inputs, "arg")
        t0 = time.perf_counter()
        try:
            reply = self.client.request({"source": source, "export": export, "inputs": feeds, "outputs": results},
                                        timeout)
        except WorkerDied as exc:
            reply = {"ok": False, "error": f"the compiler crashed or hung ({exc})"}
        seconds = time.perf_counter() - t0
        files = collect_exports(export)
        if not reply.get("ok"):
            return Compiled(False, reply.get("error") or "no reply", self.target, seconds, files)
        outputs = None
        if reply.get("executed"):
            outputs = load_arrays(results, "out")
        return Compiled(True, None, self.target, seconds, files, outputs=outputs)


def collect_exports(export_dir: str) -> dict:
    def newest(pattern):
        found = sorted(glob.glob(os.path.join(export_dir, pattern)))
        return found[-1] if found else None

    files = {"ttir": newest("irs/ttir_*.mlir"), "ttnn": newest("irs/ttnn_[0-9]*.mlir"),
             "flatbuffer": newest("fb_*.ttnn"), "perf_metrics": newest("perf_metrics*.json")}
    return {k: v for k, v in files.items() if v}


_LOCATED_ERROR = re.compile(r"loc\((.*)\): error: (.*)")  # the body may nest: "module[fc1]"(callsite(...))


def stopped_at(log: str) -> Optional[str]:
    """Where the compiler's first located error points: "model.py:7 (failed to legalize operation
    'stablehlo.reduce_window')", or None. ttbench hands over StableHLO located at the model's source lines, so
    this is the user's line (first_failing_op confirms the op by compiling ops alone)."""
    table = LocTable("")
    for line in log.splitlines():
        found = _LOCATED_ERROR.search(line)
        if not found:
            continue
        frames = table.frames(found.group(1))
        where = user_frame(frames) or (frames[0] if frames else None)
        if where is not None and where.file not in ("-", ""):
            return f"{os.path.basename(where.file)}:{where.line} ({found.group(2).strip()[:200]})"
    return None


_NOISE = (" | info ", " | debug ", "INFO|", "Platform 'tt' is experimental", "DEBUG|")


def last_meaningful_lines(log: str, n: int = 4) -> str:
    """The compiler's last few lines that say something (errors first), joined on one line."""
    lines = [l.strip() for l in log.splitlines() if l.strip() and not any(s in l for s in _NOISE)]
    errors = [l for l in lines if any(k in l for k in ("error", "Error", "FATAL", "failed", "Failed"))]
    picked = (errors or lines)[-n:]
    return " | ".join(picked)[:1500] if picked else "(no output)"
