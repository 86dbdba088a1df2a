"""The TTNN program (tt/program.py's model, the one the interpreter walks) replayed as ttnn calls on a simulated
Blackhole (ttsim), in a child process of the side environment (replay.py).

What it vouches for: the chip's own kernels on the compiler's program — bf16 packing, math fidelity, the SFPU's
approximations — as Tenstorrent's simulator models them. What it cannot: timing, and anything the simulator
does not model; an op the ttnn wheel lacks is computed on the host and marked so. A simulator abort (it `_Exit`s
on an instruction it does not implement) is pinned to the op that was running, with the simulator's own line.
"""
from __future__ import annotations

import glob
import json
import os
import re
import time
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from ...core import env_seconds
from ...io.arrays import to_numpy
from ...io.atomic import publish_folder
from ...ir.attributes import Opaque
from ...ir.op_head import TensorType
from ...proc.children import kill_group, run_once, start
from ...proc.scratch import cache_dir, temp_folder
from ...proc.shm_cleanup import remove, shm_leftovers
from ...records.values import OpValues
from ..constants import ConstantFault, ConstantUnknown, constant_value
from ..interp import ATTRIBUTE_FIELDS, KERNEL_PRECISION_FIELDS, ProgramFault, Unsupported, field_decision
from ..interp.registry import op_place
from ..plugin import mock_cluster_yaml, plugin_lock
from ..program import Program, ProgramOp
from .env import env_python, replay_missing, side_env, simulator

PRODUCER = ("ttnn's kernels on Tenstorrent's simulator (ttsim, simulated Blackhole): the chip's arithmetic as "
            "ttsim models it, not its timing")
REPLAY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "replay.py")
DEFAULT_TIMEOUT_S = env_seconds("TTBENCH_TTSIM_TIMEOUT", 1800.0)
# Lines the simulator and tt-metal print when they stop: the simulator's own words, for the user's upstream report.
_ABORT_RE = re.compile(r"(UnimplementedFunctionality[^\n]*|TT_FATAL[^\n]*|TT_THROW[^\n]*|Assertion[^\n]*|"
                       r"error:[^\n]*|ERROR[^\n]*)")


class NotSimulated(Exception):
    """Why the simulator could not run the program at all: a missing piece (with how to get it), an op kind the
    replay does not know, the simulator stopping before the program started."""


@dataclass
class Simulated:
    """One replay: outputs when it finished, the values of the ops it ran when recorded, and how it ended."""

    outputs: Optional[list] = None  # numpy arrays, main's results
    values: dict = field(default_factory=dict)  # op index -> its first result (numpy), when recorded
    op_seconds: dict = field(default_factory=dict)  # op index -> seconds on the simulator
    host_ops: list = field(default_factory=list)  # op indices computed on the host (ttnn lacks them)
    op_errors: dict = field(default_factory=dict)  # isolated: op index -> what ttnn said when it refused the op
    internal_errors: dict = field(default_factory=dict)  # op index -> the replay's own failure there (ttbench's bug)
    aborted_at: Optional[int] = None  # the op running when the simulator stopped (or ttnn refused, see refused)
    abort_line: str = ""  # what the simulator (or ttnn) said
    refused: bool = False  # ttnn raised on that op (the simulator itself did not stop)
    sharded: int = 0  # op results the replay placed sharded in L1, as their layouts state (levels 1-2)
    open_seconds: float = 0.0
    run_seconds: float = 0.0
    seconds: float = 0.0  # wall time of the child, start to end

    @property
    def finished(self) -> bool:
        return self.outputs is not None


class SimulatedOps:
    """One op-by-op pass, its simulate() runs gathered: the program, the interpreter's results, the simulator's
    per-op values and what stopped the ops that gave none (compare/outcomes.py classifies them)."""

    def __init__(self, program: Program, interpreted: dict, mode: str):
        self.program, self.interpreted, self.mode = program, interpreted, mode
        self.simulated = OpValues("ttsim", PRODUCER, [])  # the ops that gave a value on the simulator
        self._records = {p.op.index: p.op for p in program.ops()}
        self.seconds: dict = {}
        self.host_ops: set = set()
        self.refused: dict = {}  # op index -> what ttnn said
        self.internal: dict = {}  # op index -> the replay's own failure (ttbench's bug)
        self.aborted: dict = {}  # op index -> what the simulator said when it stopped there
        self.stopped_at: Optional[int] = None  # chained: the abort after which nothing has a value

    def add(self, run: Simulated) -> None:
        for index, value in run.values.items():
            if index not in self.simulated.values:
                self.simulated.ops.append(self._records[index])
            self.simulated.values[index] = [value]
        self.seconds.update(run.op_seconds)
        self.host_ops.update(run.host_ops)
        self.refused.update(run.op_errors)
        self.internal.update(run.internal_errors)
        if run.aborted_at is not None:
            (self.refused if run.refused else self.aborted)[run.aborted_at] = run.abort_line


available = replay_missing  # None when a replay can run here; else what is missing, in one line


def _type(t: Optional[TensorType]):
    return None if t is None else {"shape": list(t.shape), "element": t.element, "encoding": t.encoding}


def _attr(value):
    """An attribute value (ir.attributes) as JSON: numbers, strings, lists; opaque ones as their name and body."""
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_attr(v) for v in value]
    if isinstance(value, dict):
        return {k: _attr(v) for k, v in value.items()}
    if hasattr(value, "value") and hasattr(value, "type"):
        return {"value": value.value, "type": value.type}
    if hasattr(value, "body") and hasattr(value, "name"):
        return {"opaque": value.name, "body": value.body}
    return {"opaque": type(value).__name__, "body": str(value)}


def _op(p: ProgramOp) -> dict:
    return {"index": p.op.index, "name": p.name, "results": list(p.results), "operands": list(p.operands),
            "attributes": {k: _attr(v) for k, v in p.attributes.items()},
            "operand_types": [_type(t) for t in p.operand_types], "result_types": [_type(t) for t in p.result_types],
            "callee": p.callee}


# Fields of structured attributes that change what a device computes and that the replay hands ttnn (replay.py's
# _compute_config and _conv_config). Any other such field, or a value-changing attribute the replay drops, refuses
# the run: the simulator would compute another program than the compiler's, and its numbers would be compared as
# if it had not.
REPLAY_HANDS_OVER = {"compute_config": frozenset({"math_fidelity", "fp32_dest_acc_en", "math_approx_mode",
                                                  "packer_l1_acc", "dst_full_sync_en"}),
                     "conv2d_config": frozenset({"weights_dtype", "activation"})}
# Top-level attributes that change values and that the replay does not hand ttnn yet, by op kind.
REPLAY_DROPS: dict = {}


def replay_refusal(program: Program) -> Optional[str]:
    """What the replay would not hand ttnn, for the first op that has such a field; None when it hands over every
    field that changes values."""
    for p in program.ops():
        for name, value in p.attributes.items():
            if name not in ATTRIBUTE_FIELDS or not isinstance(value, Opaque):
                continue
            for f in value.fields():
                handed = f in REPLAY_HANDS_OVER.get(name, ())
                harmless = field_decision(name, f) and (name, f) not in KERNEL_PRECISION_FIELDS
                if not handed and not harmless:
                    return _dropped(p, f"field {f} of {name}")
        for name in REPLAY_DROPS.get(p.name, ()):
            if p.attributes.get(name) not in (None, ""):
                return _dropped(p, f"attribute {name}")
    return None


def _dropped(p: ProgramOp, what: str) -> str:
    where = f" at {p.op.location}" if p.op.location else ""
    return (f"the ttsim replay does not hand ttnn the {what} of {p.name} #{p.op.index}{where} yet: ttnn would "
            f"compute another value than the program states, so nothing is simulated")


def program_json(program: Program) -> dict:
    """The program as the replay reads it; main's return types from the ops that define them."""
    functions = {}
    for fn in program.functions.values():
        defined = {r: t for p in fn.ops for r, t in zip(p.results, p.result_types)}
        defined.update(zip(fn.arguments, fn.argument_types))
        functions[fn.name] = {"arguments": fn.arguments, "argument_types": [_type(t) for t in fn.argument_types],
                              "returns": fn.returns, "return_types": [_type(defined.get(r)) for r in fn.returns],
                              "ops": [_op(p) for p in fn.ops]}
    return {"main": program.main.name, "functions": functions}


# The op kinds whose ttnn call the replay hands a compute kernel config (replay.py).
COMPUTE_CONFIG_KINDS = frozenset({"ttnn.matmul", "ttnn.linear", "ttnn.conv2d", "ttnn.softmax", "ttnn.sum", "ttnn.mean",
                                  "ttnn.max", "ttnn.min"})


def _override_compute_configs(description: dict, overrides: dict) -> None:
    for fn in description["functions"].values():
        for op in fn["ops"]:
            fields = overrides.get(op["index"])
            if not fields:
                continue
            if op["name"] not in COMPUTE_CONFIG_KINDS:
                raise ValueError(f"{op['name']} #{op['index']} takes no compute config in the replay")
            config = op["attributes"].get("compute_config")
            body = config.get("body", "") if isinstance(config, dict) else ""
            for name, value in fields.items():
                text = ("true" if value else "false") if isinstance(value, bool) else str(value)
                if re.search(rf"\b{name} = \w+", body):
                    body = re.sub(rf"\b{name} = \w+", f"{name} = {text}", body)
                else:
                    body = f"{body}, {name} = {text}" if body else f"{name} = {text}"
            op["attributes"]["compute_config"] = {"opaque": "ttnn.device_compute_kernel_config", "body": body}


def sim_env_vars() -> dict:
    """What tt-metal needs to run on ttsim instead of a chip; the kernel cache in ttbench's cache folder."""
    path = simulator().detail
    return {"TT_METAL_SIMULATOR": path, "TT_METAL_SLOW_DISPATCH_MODE": "1", "TT_METAL_DISABLE_SFPLOADMACRO": "1",
            "TT_METAL_CACHE": os.environ.get("TTBENCH_TTSIM_KERNEL_CACHE") or os.path.join(cache_dir(),
                                                                                              "ttsim-kernels"),
            "TT_METAL_LOGGER_LEVEL": "ERROR",
            "PYTHONUNBUFFERED": "1"}


def sim_lock_path() -> str:
    return os.path.join(cache_dir(), "ttsim.lock")


def simulate(program: Program, arguments: list, record: bool = False, seed: Optional[dict] = None,
             timeout: float = DEFAULT_TIMEOUT_S, on_op=None, skip_through: Optional[int] = None,
             healed=frozenset(), compute_configs: Optional[dict] = None) -> Simulated:
    """Replay `program` on ttsim with `arguments` (numpy arrays, main's order). record: keep every op's first
    result. seed: {(function name, SSA name): numpy array}: isolated op by op, every op of every function on
    these values (the interpreter's) instead of the simulated ones, each op's first result kept, no outputs;
    `skip_through`: ops up to this index are left out (a previous child ran them). healed (op indices, with
    `seed`): chained, but these ops are not computed: their results are the seeded values (drift's healing; a
    result nothing later reads need not be seeded). on_op(index): called as each op finishes (progress). Raises
    NotSimulated. compute_configs: {op index: {field: value}}: those fields of the op's compute config set (a what-if:
    math_fidelity="hifi4", fp32_dest_acc_en=True), only for op kinds whose ttnn call takes one
    (COMPUTE_CONFIG_KINDS)."""
    missing = available()
    if missing:
        raise NotSimulated(missing)
    dropped = replay_refusal(program)
    if dropped:
        raise NotSimulated(dropped)
    description = program_json(program)
    description["record"] = record
    if compute_configs:
        _override_compute_configs(description, compute_configs)
    if healed:
        description["healed"] = sorted(healed)
    elif seed is not None:
        description.update(mode="isolated", skip_through=-1 if skip_through is None else skip_through)
    run = Simulated()
    with temp_folder("ttbench-ttsim-") as job, plugin_lock(timeout) as locked:
        if not locked:
            raise NotSimulated(f"waited {timeout:g} s for another Tenstorrent process to finish")
        _write_program(job, description, program)
        os.makedirs(os.path.join(job, "args"))
        for i, a in enumerate(arguments):
            np.save(os.path.join(job, "args", f"{i}.npy"), _portable(a))
        for (fn, name), value in (seed or {}).items():
            os.makedirs(os.path.join(job, "seed", fn), exist_ok=True)
            np.save(os.path.join(job, "seed", fn, f"{name}.npy"), _portable(value))
        before = shm_leftovers()
        log_path = os.path.join(job, "log")
        t0 = time.perf_counter()
        with open(log_path, "w") as log:
            proc = start([env_python(), REPLAY, job], {**os.environ, **sim_env_vars()}, stdout=log, stderr=log,
                         cwd=cache_dir())
        try:
            seen = _follow(proc, os.path.join(job, "progress"), timeout, t0, on_op)
        finally:
            kill_group(proc)
            _wait_for_cleaner(os.path.join(job, "cleaner.pid"))
            remove(shm_leftovers() - before)  # this replay's (one at a time: the lock)
        run.seconds = time.perf_counter() - t0
        log_text = open(log_path, errors="replace").read()
        _read_progress(run, os.path.join(job, "progress"))
        result_path = os.path.join(job, "result.json")
        if not os.path.isfile(result_path):
            if seen == "timeout":
                raise NotSimulated(f"the simulator did not finish in {timeout:g} s "
                                   f"(op #{run.aborted_at} was running)" if run.aborted_at is not None else
                                   f"the simulator did not finish in {timeout:g} s")
            run.abort_line = _abort_line(log_text) or f"the replay exited {proc.returncode} without a word"
            if run.aborted_at is None:
                raise NotSimulated(f"the simulator stopped before the program started: {run.abort_line}")
            _read_values(run, job)
            return run
        with open(result_path) as f:
            result = json.load(f)
        if result.get("unsupported"):
            raise NotSimulated(f"the ttsim replay does not know {result['unsupported']} yet")
        if result.get("op_error"):  # an op failed and the replay stopped there: ttnn refused it, or ttbench's bug
            index, message = result["op_error"]["index"], result["op_error"]["message"]
            if result["op_error"].get("internal"):
                run.internal_errors[index], run.aborted_at = message, None
            else:
                run.aborted_at, run.abort_line, run.refused = index, message, True
            _read_values(run, job)
            return run
        run.open_seconds, run.run_seconds = result.get("open_seconds", 0.0), result.get("run_seconds", 0.0)
        run.sharded = result.get("sharded", 0)
        run.outputs = [np.load(os.path.join(job, "outputs", f"{i}.npy")) for i in range(result["outputs"])]
        run.aborted_at = None  # finished: the last op started also ended (a refused one is in op_errors)
        _read_values(run, job)
    return run


TTNN_CHECK = ("ttnn's graph capture of the program replayed with nothing dispatched on a mock Blackhole P150 "
              "(ttnn 0.76 in the side environment): ttnn's own allocations, circular buffers included; no values")


def ttnn_memory_check(program: Program, timeout: float = DEFAULT_TIMEOUT_S, report_dir: Optional[str] = None) -> dict:
    """ttnn's own peak L1 for `program`: its main function replayed under ttnn's graph capture, nothing dispatched,
    on a mock device (the side environment only: no simulator, no chip). -> {"peak_l1": ttnn's
    extract_peak_L1_memory_usage, "per_core": {"cb", "l1", "total"}: its peak per core (circular buffers, tensors,
    both)}. `report_dir` (a new folder, checked by the caller): ttnn's memory report written there (db.sqlite,
    config.json: the folder Tenstorrent's ttnn-visualizer opens). Raises NotSimulated naming what is missing or
    what stopped it."""
    env = side_env()
    if not env.available:
        raise NotSimulated(f"ttnn's check runs in the simulator's side environment: {env.hint}")
    dropped = replay_refusal(program)
    if dropped:
        raise NotSimulated(dropped)
    description = {**program_json(program), "mode": "capture", "report": report_dir is not None}
    with temp_folder("ttbench-capture-") as job, plugin_lock(timeout) as locked:
        if not locked:
            raise NotSimulated(f"waited {timeout:g} s for another Tenstorrent process to finish")
        _write_program(job, description, program)
        cluster = os.path.join(job, "cluster_desc.yaml")
        with open(cluster, "w") as f:
            f.write(mock_cluster_yaml())
        child_env = {k: v for k, v in os.environ.items() if k != "TT_METAL_SIMULATOR"}
        child_env.update(TT_METAL_MOCK_CLUSTER_DESC_PATH=cluster, TT_METAL_LOGGER_LEVEL="ERROR",
                         TT_METAL_CACHE=os.path.join(cache_dir(), "ttsim-kernels"), PYTHONUNBUFFERED="1")
        done = run_once([env_python(), REPLAY, job], timeout, env=child_env, cwd=cache_dir())
        result_path = os.path.join(job, "result.json")
        if done.timed_out or not os.path.isfile(result_path):
            why = f"did not finish in {timeout:g} s" if done.timed_out else \
                _abort_line(done.stdout + done.stderr) or f"exited {done.returncode} without a word"
            raise NotSimulated(f"ttnn's graph capture stopped: {why}")
        with open(result_path) as f:
            result = json.load(f)
        if report_dir is not None and result.get("capture"):
            publish_folder(os.path.join(job, "report"), report_dir)
    if result.get("unsupported"):
        raise NotSimulated(f"the ttnn replay does not know {result['unsupported']} yet")
    if result.get("op_error"):
        raise NotSimulated(f"ttnn's graph capture stopped at op #{result['op_error']['index']}: "
                           f"{result['op_error']['message']}")
    return result["capture"]


def standalone_command(script: str = "repro.py") -> str:
    """The shell command that runs a standalone ttnn script on the simulator here (this machine's paths)."""
    return " ".join([f"{k}={v}" for k, v in sim_env_vars().items()] + [env_python(), script])


def run_standalone(script_path: str, timeout: float = 600.0):
    """A standalone ttnn script (tt/sim/standalone.py) run on the simulator as a user would run it: ttnn's side
    environment, the simulator's variables, one Tenstorrent process at a time; what tt-metal leaves in /dev/shm
    removed. -> proc.children.Finished. Raises NotSimulated when the simulator is missing or busy too long."""
    missing = available()
    if missing:
        raise NotSimulated(missing)
    with plugin_lock(timeout) as locked:
        if not locked:
            raise NotSimulated(f"waited {timeout:g} s for another Tenstorrent process to finish")
        before = shm_leftovers()
        try:
            return run_once([env_python(), script_path], timeout, env={**os.environ, **sim_env_vars()},
                            cwd=os.path.dirname(script_path), merge_stderr=True)
        finally:
            remove(shm_leftovers() - before)


def abort_line(log: str) -> str:
    """The simulator's or tt-metal's last words in a log ("" when it has none)."""
    return _abort_line(log)


def _write_program(job: str, description: dict, program: Program) -> None:
    """What every replay reads from its job folder: the program (program.json) and its constants' values."""
    with open(os.path.join(job, "program.json"), "w") as f:
        json.dump(description, f)
    for index, value in _constants(program).items():
        os.makedirs(os.path.join(job, "constants"), exist_ok=True)
        np.save(os.path.join(job, "constants", f"{index}.npy"), _portable(value))


def _constants(program: Program) -> dict:
    """op index -> the value of each `ttnn.constant`, read by the program model's reader of dense literals and
    resource blobs (tt/constants.py, the interpreter's too); the replay places it as the op's result type says."""
    found = {}
    for p in program.ops():
        if p.name == "ttnn.constant":
            try:
                value = constant_value(program, p)
            except ConstantUnknown as exc:
                raise NotSimulated(str(Unsupported(p.op, str(exc)))) from exc
            except ConstantFault as exc:
                raise ProgramFault(f"{op_place(p)} {exc}") from exc
            found[p.op.index] = to_numpy(value)
    return found


def _portable(array) -> np.ndarray:
    """An array as a .npy file carries it to the replay: bf16 (ml_dtypes, a bare 2-byte void in .npy) as f32,
    exactly; the replay converts to the type the IR states."""
    array = np.asarray(array)
    return array.astype(np.float32) if array.dtype.name == "bfloat16" else array


def _wait_for_cleaner(pid_file: str, timeout: float = 10.0) -> None:
    """The replay's clean-up helper (proc/shm_cleanup.py) finishing, so it cannot remove what the next replay
    makes."""
    try:
        pid = int(open(pid_file).read())
    except (OSError, ValueError):
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":  # done, not yet reaped (by init)
                    return
        except (OSError, IndexError):
            return
        time.sleep(0.05)


def _follow(proc, progress: str, timeout: float, t0: float, on_op) -> str:
    """Wait for the child, telling on_op about each finished op; "done" or "timeout"."""
    offset = 0
    while True:
        finished = proc.poll() is not None
        if on_op is not None and os.path.exists(progress):
            with open(progress) as f:
                f.seek(offset)
                chunk = f.read()
            complete = chunk[:chunk.rfind("\n") + 1]
            offset += len(complete)
            for line in complete.splitlines():
                if line.startswith("done "):
                    on_op(int(line.split()[1]))
        if finished:
            return "done"
        if time.perf_counter() - t0 > timeout:
            return "timeout"
        time.sleep(0.2)


def _read_progress(run: Simulated, progress: str) -> None:
    if not os.path.exists(progress):
        return
    started = None
    for line in open(progress).read().splitlines():
        parts = line.split()
        if parts[:1] == ["start"]:
            started = int(parts[1])
        elif parts[:1] in (["failed"], ["bug"]):
            (run.op_errors if parts[0] == "failed" else run.internal_errors)[int(parts[1])] = \
                json.loads(line.split(" ", 2)[2])
            started = None
        elif parts[:1] == ["done"] and len(parts) >= 4:
            index = int(parts[1])
            run.op_seconds[index] = float(parts[2])
            if parts[3] == "host":
                run.host_ops.append(index)
            if started == index:
                started = None
    run.aborted_at = started


def _read_values(run: Simulated, job: str) -> None:
    for path in glob.glob(os.path.join(job, "values", "*.npy")):
        run.values[int(os.path.basename(path)[:-4])] = np.load(path)


def _abort_line(log: str) -> str:
    hits = _ABORT_RE.findall(log)
    return hits[-1].strip()[:400] if hits else ""
