"""The op-by-op flow (the drivers): every op of the model as a graph of its own, lowered, compiled and run on a device
against the golden value of that op from one run of the whole model. The units are made in op_units.py, the
executors that take them to a device live in op_executors.py.

Units: for the export/dynamo frontends, every aten op of the captured FX graph (golden values from one eager run
of that graph); for the onnx frontend, every ONNX node as a one-node model (golden values from one onnxruntime
run with every intermediate recorded; see onnx_nodes.py).

isolated: units deduplicated (same op, input shapes/dtypes, non-tensor arguments); each unique one runs once on
          the golden inputs of its first occurrence.
chained:  every unit in graph order, fed the device's outputs of its producers; the first whose output falls
          below the PCC threshold is where numerics start to diverge.

Each unit is lowered to StableHLO in the CPU worker, then handed to the device's executor
(op_executors.EXECUTORS): a PJRT device (cpu, cuda) compiles and runs it; the Tenstorrent compiler (tt) compiles it through TTIR -> TTNN ->
flatbuffer in one long-lived plugin process, and executes only where a chip is present (compile-only
otherwise: the row says how far it got, with no PCC). A worker that crashes or hangs makes that unit a row with
its error; the flow goes on.
"""
from __future__ import annotations

import os
import pickle
import time
from typing import Callable, Optional

import numpy as np
import torch
import torch.fx

from ..compare.values import compare, mismatch
from ..core import BadInput, BringupRecord, OpByOpMode, Reached, StageName
from ..io.arrays import from_numpy
from ..proc.client import WorkerDied, shared_client
from ..proc.scratch import temp_folder
from ..progress import bar as progress_bar
from .devices import device as find_device
from .one_op import make_spec, spec_key
from .onnx_nodes import constant_names
from .op_executors import EXECUTORS, INTERPRETED_TTNN, TTExecutor
from .op_units import (Unit, fx_location, fx_occurrences, fx_unit, onnx_locations, onnx_node_name, onnx_nodes,
                       onnx_occurrences, onnx_unit, onnx_values, recorded_calls, skip_call)
from ..records.results import OpByOpReport, OpRow
from .simulated_ops import simulator_op_by_op

MODES = tuple(OpByOpMode)
DEFAULT_OP_TIMEOUT_S = 30.0
LOWERED_ONLY = "lowered to StableHLO, not run (lower_only)"  # the note of a lower_only row that lowered
# Isolated units compiled as one program on a PJRT device (see _Rows.run_batch): enough to pay the compile's fixed
# cost rarely, few enough that progress moves and the inputs of a batch stay small.
BATCH_UNITS = 24
BATCH_SECONDS_PER_UNIT = 1.0  # the batch's timeout beyond the per-op one


# --- one unit: lower in the CPU worker, then the executor ---------------------------------------------------------

def _lower(unit: Unit, tmp: str, timeout: float) -> tuple:
    """-> (StableHLO text or None, furthest stage, error)."""
    if unit.refused:
        return None, unit.kind, unit.refused
    payload, text_path = _write_payload(unit, tmp, "op")
    request = {"kind": "lower", "spec": payload, "out": text_path} if unit.kind == "fx" else \
        {"kind": "lower_onnx", "model": payload, "out": text_path}
    try:
        reply = shared_client("cpu").request(request, timeout)
    except WorkerDied as exc:
        return None, unit.kind, f"worker crashed or hung: {exc}"
    return _lowered(reply, unit, text_path)


def _lower_together(units: list, tmp: str, timeout: float) -> Optional[list]:
    """Units of one kind (none refused) lowered by one pipeline run in the worker (unit_batch.gather). -> a
    (text or None, furthest stage, error) per unit, or None when they did not lower together (a crash, a hang,
    one unit the pipeline refuses): each is then lowered alone, for its own verdict."""
    paths, outs = zip(*(_write_payload(unit, tmp, f"unit{i}") for i, unit in enumerate(units)))
    request = {"kind": "lower_many", "unit_kind": "lower" if units[0].kind == "fx" else "lower_onnx",
               "paths": list(paths), "outs": list(outs)}
    try:
        reply = shared_client("cpu").request(request, timeout)
    except WorkerDied:
        return None
    if not reply.get("ok"):
        return None
    return [_lowered(r, unit, out) for r, unit, out in zip(reply["units"], units, outs)]


def _write_payload(unit: Unit, tmp: str, name: str) -> tuple:
    """-> (the unit's payload file for the worker, the path its StableHLO text goes to)."""
    if unit.kind == "fx":
        payload = os.path.join(tmp, f"{name}.pkl")
        with open(payload, "wb") as f:  # pickle, not torch.save: it refuses torch.memory_format arguments
            pickle.dump(unit.payload, f)
    else:
        payload = os.path.join(tmp, f"{name}.onnx")
        with open(payload, "wb") as f:
            f.write(unit.payload.SerializeToString())  # type: ignore[attr-defined]
    return payload, os.path.join(tmp, f"{name}.mlir")


def _lowered(reply: dict, unit: Unit, text_path: str) -> tuple:
    if not reply.get("ok"):
        return None, reply.get("stage", unit.kind), reply.get("error")
    with open(text_path) as f:
        return f.read(), "stablehlo", None


class _Rows:
    """Runs units and can run one again by index (same inputs, a fresh executor)."""

    def __init__(self, units: list, executor_class, device, min_pcc, atol, rtol, timeout, transform,
                 lower_only: bool = False):
        self.units, self.executor_class, self.device = units, executor_class, device
        self.lower_only = lower_only  # op_by_op's: lowered is as far as a unit goes
        self.min_pcc, self.atol, self.rtol, self.timeout, self.transform = min_pcc, atol, rtol, timeout, transform
        self.lowered: dict = {}  # unit key -> what _lower gave it

    def run(self, executor, index: int) -> Optional[list]:
        """Fill in unit `index`'s row; -> the device's output arrays (None when it did not execute)."""
        unit = self.units[index]
        row = unit.row
        t = time.perf_counter()
        with temp_folder("ttbench-op-") as tmp:
            text = self._lower(unit, tmp)
            arrays = None
            if text is not None:
                reached, row.error, arrays = executor.execute(text, unit.inputs, tmp, self.timeout)
                row.furthest_stage = Reached(reached)
        arrays = self._compare(row, arrays, unit.golden, executor)
        row.seconds = time.perf_counter() - t
        return arrays

    def run_batch(self, executor, indices: list) -> None:
        """Fill in the rows of units `indices`: lowered together (one pipeline run), then, on a device that can
        (executor.execute_many: PJRT), compiled together as one program and run once; otherwise, or when a
        batch does not lower or compile as one, each unit is lowered or run alone, for its own verdict (a crash
        or hang stays that unit's row). A row's seconds: its share of the batch's lowering, compile and run, or
        its own where it went alone."""
        texts: dict = {}
        with temp_folder("ttbench-ops-") as tmp:
            together = [i for i in indices if not self.units[i].refused]
            t = time.perf_counter()
            lowered = _lower_together([self.units[i] for i in together], tmp,
                                      self.timeout + BATCH_SECONDS_PER_UNIT * len(together)) \
                if len(together) > 1 else None
            share = (time.perf_counter() - t) / max(len(together), 1)
            lowered_of = dict(zip(together, lowered)) if lowered is not None else {}
            for i in indices:
                unit, t = self.units[i], time.perf_counter()
                if i in lowered_of:
                    text, reached, unit.row.error = lowered_of[i]
                    unit.row.furthest_stage = Reached(reached)
                    text = self._transformed(unit, text)
                else:
                    text = self._lower(unit, tmp)
                unit.row.seconds = (share if i in lowered_of else 0.0) + time.perf_counter() - t
                if text is not None:
                    texts[i] = text
            if self.lower_only:
                for i in texts:
                    self.units[i].row.ok, self.units[i].row.note = True, LOWERED_ONLY
                return
            t = time.perf_counter()
            batch = executor.execute_many(list(texts.values()), [self.units[i].inputs for i in texts], tmp,
                                          self.timeout + BATCH_SECONDS_PER_UNIT * len(texts)) \
                if len(texts) > 1 and getattr(executor, "execute_many", None) is not None else None
            share = (time.perf_counter() - t) / max(len(texts), 1)
            arrays_of = dict(zip(texts, batch)) if batch is not None else {}
            for i in indices:
                unit, t = self.units[i], time.perf_counter()
                arrays = None
                if i in arrays_of:
                    unit.row.furthest_stage, unit.row.error, arrays = Reached.EXECUTED, None, arrays_of[i]
                elif i in texts:  # in a folder of its own: the TT compiler's files say how far it got
                    alone = os.path.join(tmp, f"alone{i}")
                    os.mkdir(alone)
                    reached, unit.row.error, arrays = executor.execute(texts[i], unit.inputs, alone, self.timeout)
                    unit.row.furthest_stage = Reached(reached)
                self._compare(unit.row, arrays, unit.golden, executor)
                unit.row.seconds += (share if i in arrays_of else 0.0) + time.perf_counter() - t

    def prelower(self, units) -> None:
        """Lower `units` (keyed) ahead, BATCH_UNITS at a time, for _lower to take (chained mode meets its units
        one at a time, each after its producers ran); a batch that does not lower together is left to _lower,
        unit by unit."""
        todo = [u for u in units if u.key not in self.lowered and not u.refused]
        with temp_folder("ttbench-ops-") as tmp:
            for start in range(0, len(todo), BATCH_UNITS):
                batch = todo[start:start + BATCH_UNITS]
                lowered = _lower_together(batch, tmp, self.timeout + BATCH_SECONDS_PER_UNIT * len(batch)) \
                    if len(batch) > 1 else None
                self.lowered.update(zip((u.key for u in batch), lowered or ()))

    def _lower(self, unit: Unit, tmp: str) -> Optional[str]:
        """The unit's StableHLO text (transformed, if asked), or None with its row saying how far it got. A unit
        whose key was lowered before (chained mode meets each op once per occurrence) takes that result."""
        lowered = self.lowered.get(unit.key) if unit.key is not None else None
        if lowered is None:
            lowered = _lower(unit, tmp, self.timeout)
            if unit.key is not None:
                self.lowered[unit.key] = lowered
        text, reached, unit.row.error = lowered
        unit.row.furthest_stage = Reached(reached)
        return self._transformed(unit, text)

    def _transformed(self, unit: Unit, text: Optional[str]) -> Optional[str]:
        if text is not None and self.transform is not None:
            text = self.transform(text, unit.row.op, unit.row.nodes[0])
        return text

    def _compare(self, row: OpRow, arrays, golden: list, executor) -> Optional[list]:
        if arrays is None:
            # compile-only: reaching the flatbuffer is the pass; the unit's TTNN program, interpreted, gives the
            # Tenstorrent path's PCC beside it (named as the interpreter's, not a chip's; `note` says when it
            # differs from the golden or could not be had)
            row.ok = not executor.executes and row.error is None and row.furthest_stage == Reached.FLATBUFFER
            interpreted = getattr(executor, "interpreted", None)
            if row.ok and interpreted is not None:
                values, why = interpreted
                if values is None:
                    row.note = why
                else:
                    # ok keeps its compile-only meaning (reached the flatbuffer); the numbers go beside it
                    compiled_ok = row.ok
                    self._compare_values(row, values, golden)
                    row.pcc_from = INTERPRETED_TTNN
                    if not row.ok:
                        row.note = f"interpreted TTNN differs from the golden: {row.error}"
                    row.ok, row.error = compiled_ok, None
            return None
        return self._compare_values(row, arrays, golden)

    def _compare_values(self, row: OpRow, arrays, golden: list) -> Optional[list]:
        if len(arrays) != len(golden):
            row.ok, row.error = False, f"{len(arrays)} outputs, the golden has {len(golden)}"
            return None
        cmps = [compare(a, g, self.atol, self.rtol, self.min_pcc) for a, g in zip(arrays, golden)]
        row.pcc = min((c["pcc"] for c in cmps), default=None)  # an op with no output has no PCC
        abs_errors = [c["max_abs_error"] for c in cmps if c["max_abs_error"] is not None]
        row.max_abs_error = max(abs_errors, default=None)
        row.ok = all(c["ok"] for c in cmps)
        if not row.ok and row.error is None:  # the worst PCC over the outputs, or the values not allclose
            row.error = mismatch({"pcc": row.pcc} if row.pcc is not None else {}, self.min_pcc)
        return arrays

    def rerun(self, index: int) -> OpRow:
        unit = self.units[index]
        old = unit.row
        unit.row = OpRow(index=old.index, op=old.op, count=old.count, inputs=old.inputs, locations=old.locations,
                         furthest_stage=unit.kind, nodes=old.nodes)
        with self.executor_class(self.device) as executor:
            self.run(executor, index)
        return unit.row


# --- the flow ------------------------------------------------------------------------------------------------------

def op_by_op(b: BringupRecord, device: str = "cpu", stage: Optional[str] = None, mode: str = "isolated",
             pcc: float = 0.99, atol: float = 1e-2, rtol: float = 1e-2, timeout: Optional[float] = None,
             transform: Optional[Callable] = None, progress: bool = True, stop_at_first_failure: bool = False,
             lower_only: bool = False) -> OpByOpReport:
    """Run every op of `b` on `device` (see module doc). `timeout`: seconds per op (default 30) or, on ttsim, per
    simulator run (default the simulator's, 1800: a cold run compiles kernels). `transform(stablehlo_text, op,
    node)`, if given, may edit
    each op's StableHLO before it runs (to try a lowering change, or to test the tool). `stop_at_first_failure`:
    isolated mode stops after the first op that fails (first_failing_op uses it). `lower_only` (isolated mode):
    each op is lowered to StableHLO and not run (a row that lowered is ok, its note says so): what an op-level
    reproduction of a torch-mlir failure needs, without running every op on the CPU."""
    if mode not in MODES:
        raise BadInput(f"unknown op-by-op mode {mode!r}: choose one of {', '.join(MODES)}")
    if lower_only and mode != "isolated":
        raise BadInput("lower_only lowers each op alone: it takes mode='isolated'")
    if device == "ttsim":  # the compiler's own TTNN ops, not the frontend's: simulator against interpreter
        if stage not in (None, "ttnn"):
            raise BadInput(f"op by op on ttsim runs the TTNN program's ops (got stage={stage!r})")
        return simulator_op_by_op(b, mode=mode, pcc=pcc, atol=atol, rtol=rtol, timeout=timeout, progress=progress)
    timeout = DEFAULT_OP_TIMEOUT_S if timeout is None else timeout
    dev = find_device(device)
    executor_class = EXECUTORS.get(dev.name)
    if executor_class is None or not (dev.usable or (dev.compiles and executor_class is TTExecutor)):
        raise BadInput(f"device {device!r} cannot run ops here: {dev.reason}")
    if stage not in (None, executor_class.stage):
        raise BadInput(f"op by op on {dev.name} runs each op to its {executor_class.stage} stage (got stage={stage!r})")
    compile_only = executor_class is TTExecutor and not dev.usable
    if mode == "chained" and compile_only:
        raise BadInput("chained op by op feeds each op the device's outputs, and tt is compile-only here (no chip): "
                       "use mode='isolated'")
    if b.frontend == "onnx":
        if StageName.ONNX not in b.stages or not b.stages[StageName.ONNX].ok:
            raise BadInput("op by op needs the ONNX model, and this bringup has no onnx stage that worked")
    elif b.fx_graph is None:
        raise BadInput(f"op by op needs an FX graph; this {b.frontend} bringup has none (its fx stage failed)")
    t0 = time.perf_counter()
    # every unit is lowered in the CPU worker: its start and imports overlap the recording of the golden values
    shared_client("cpu").send_ahead({"kind": "warm"})
    flow = _isolated if mode == "isolated" else _chained
    skipped: dict = {}  # op -> occurrences left out (see skip_call)
    rows, total, first, rerun = flow(b, dev, executor_class, pcc, atol, rtol, timeout, transform, progress,
                                     stop_at_first_failure, skipped, lower_only)
    return OpByOpReport(model=b.model_name, stage=executor_class.stage, device=dev.name, mode=mode, min_pcc=pcc,
                        rows=rows, total_ops=total, seconds=time.perf_counter() - t0, first_divergence=first,
                        compile_only=compile_only, frontend=b.frontend, skipped=skipped, _rerun=rerun)


def _isolated(b: BringupRecord, dev, executor_class, min_pcc, atol, rtol, timeout, transform, progress,
              stop_at_first_failure, skipped, lower_only=False):
    occurrences = onnx_occurrences(b, timeout) if b.frontend == "onnx" else fx_occurrences(b, timeout, skipped)
    unique: dict = {}
    for key, make_unit, node_name, location in occurrences:
        if key not in unique:
            unit = make_unit()
            unit.row.index = len(unique)
            unique[key] = unit
        row = unique[key].row
        row.count += 1
        row.nodes.append(node_name)
        if location and location not in row.locations:
            row.locations.append(location)
    units = list(unique.values())
    rows = _Rows(units, executor_class, dev, min_pcc, atol, rtol, timeout, transform, lower_only)
    with executor_class(dev) as executor, progress_bar(len(units), f"{b.model_name} ops", progress) as bar:
        # first_failing_op compiles one op at a time on a device that compiles each alone (tt): no further
        step = 1 if stop_at_first_failure and getattr(executor, "execute_many", None) is None else BATCH_UNITS
        for start in range(0, len(units), step):
            indices = list(range(start, min(start + step, len(units))))
            rows.run_batch(executor, indices)
            bar.update(len(indices))
            failed = next((i for i in indices if not units[i].row.ok), None)
            if stop_at_first_failure and failed is not None:
                units[:] = units[:failed + 1]
                break
    return [u.row for u in units], sum(u.row.count for u in units), None, rows.rerun


# --- chained -----------------------------------------------------------------------------------------------------

def _chained(b: BringupRecord, dev, executor_class, min_pcc, atol, rtol, timeout, transform, progress, _stop, skipped,
             _lower_only=False):
    units: list = []
    rows = _Rows(units, executor_class, dev, min_pcc, atol, rtol, timeout, transform)
    chain = _onnx_chain if b.frontend == "onnx" else _fx_chain
    first = None
    with executor_class(dev) as executor:
        for unit in chain(b, timeout, progress, lambda u: _run_chained(rows, executor, units, u), rows.prelower,
                          skipped):
            if first is None and unit.row.pcc is not None and unit.row.pcc < min_pcc:
                first = unit.row
    return [u.row for u in units], len(units), first, rows.rerun


def _run_chained(rows: _Rows, executor, units: list, unit: Unit) -> Optional[list]:
    unit.row.index, unit.row.count = len(units), 1
    units.append(unit)
    return rows.run(executor, unit.row.index)


def _fx_chain(b: BringupRecord, timeout, progress, run, prelower, skipped):
    """Yields each aten op's unit after `run(unit)` ran it on the device's values of its producers; each op's
    program is lowered ahead (`prelower`: from the golden call, whose shapes and arguments are the chain's)."""
    recorded = recorded_calls(b, timeout)
    calls = [(node, out) for node, _, out in recorded]
    golden_of = {node: out for node, out in calls}
    ahead: dict = {}  # key -> the unit of its first call
    for _, spec, out in recorded:
        key = spec_key(spec)
        if key not in ahead and not skip_call(spec, out, {}):
            ahead[key] = _keyed(fx_unit(spec, out), key)
    prelower(ahead.values())
    device_env: dict = {}  # node -> the value the device produced (same structure as the golden)
    placeholders = [n for n in b.fx_graph.graph.nodes if n.op == "placeholder"]
    env: dict = dict(zip(placeholders, [v.clone() for v in b.argument_values]))

    def value_of(n):
        return device_env[n] if n in device_env else env.get(n, golden_of.get(n))

    with progress_bar(len(calls), f"{b.model_name} chained", progress) as bar:
        for node in b.fx_graph.graph.nodes:
            if node.op == "get_attr":
                env[node] = getattr(b.fx_graph, node.target)
                continue
            if node.op != "call_function":
                continue
            args, kwargs = torch.fx.node.map_arg((node.args, node.kwargs), value_of)
            if not isinstance(node.target, torch._ops.OpOverload):  # getitem and friends: plain Python
                env[node] = node.target(*args, **kwargs)
                continue
            spec = make_spec(node, args, kwargs)
            if skip_call(spec, golden_of[node], skipped):  # later ops read its golden value
                bar.update(1)
                continue
            spec["inputs"] = [x.clone() for x in spec["inputs"]]
            unit = fx_unit(spec, golden_of[node])
            unit.key = spec_key(spec)
            unit.row.nodes.append(node.name)
            unit.row.locations.extend(l for l in [fx_location(node)] if l)
            arrays = run(unit)
            outputs = [from_numpy(a) if a.dtype.kind != "V" else None for a in arrays] if arrays else None
            if outputs is not None and None not in outputs:
                device_env[node] = _restructure(golden_of[node], outputs, spec["outputs_used"])
            # An op that could not run hands on the golden value, so later rows measure their own error.
            bar.update(1)
            yield unit


def _onnx_chain(b: BringupRecord, timeout, progress, run, prelower, _skipped):
    """Yields each ONNX node's unit after `run(unit)` ran it on the device's values of its producers; each
    node's program is lowered ahead (`prelower`: from the golden values, whose shapes are the chain's)."""
    golden = onnx_values(b, timeout)
    constants = constant_names(b.stages[StageName.ONNX].module)
    locations = onnx_locations(b)
    current = dict(golden)  # name -> value: the device's where it ran, the golden's otherwise
    nodes = onnx_nodes(b)
    prelower({key: _keyed(unit, key) for _, node in nodes
              for key, unit in [onnx_unit(b, node, golden, constants)]}.values())
    with progress_bar(len(nodes), f"{b.model_name} chained", progress) as bar:
        for index, node in nodes:
            key, unit = onnx_unit(b, node, current, constants)
            unit.key = key
            unit.golden = [golden[o] for o in node.output if o in golden]
            unit.row.nodes.append(onnx_node_name(node, index))
            unit.row.locations.extend(l for l in [locations.get(node.name)] if l)
            arrays = run(unit)
            if arrays is not None:
                current.update(zip([o for o in node.output if o], (np.asarray(a) for a in arrays)))
            bar.update(1)
            yield unit


def _keyed(unit: Unit, key: tuple) -> Unit:
    unit.key = key
    return unit


def _restructure(golden, tensors: list, used=None):
    """Device outputs (flat) in the structure of the golden output (a tensor or a tuple/list of them); results
    the one-op graph did not return (not `used`) keep the golden's value."""
    if isinstance(golden, torch.Tensor):
        return tensors[0]
    it = iter(tensors)
    return type(golden)(next(it) if isinstance(g, torch.Tensor) and (used is None or i in used) else g
                        for i, g in enumerate(golden))
