"""The op-by-op flow: every aten op of the captured FX graph as a graph of its own, lowered, compiled and run on
a device against the golden inputs/outputs of one eager run.

isolated: ops deduplicated by (op, input shapes/dtypes, non-tensor arguments); each unique op runs once on the
          golden inputs of its first occurrence.
chained:  every op in graph order, fed the device's outputs of its producers; the first op whose output falls
          below the PCC threshold is where numerics start to diverge.
Every lowering and run happens in one worker process, restarted after a crash or a timeout (that op becomes a
row with its error; the flow goes on).
"""
from __future__ import annotations

import os
import pickle
import tempfile
import time
from typing import Callable, Optional

import torch
import torch.fx

from ..children import ContainedFailure, call_in_fork
from ..core import BadInput, ModelFailed
from ..ir.locations import frames_from_stack_trace, user_frame
from .client import WorkerClient, WorkerDied, shared_client
from .compare import compare
from .devices import device as find_device
from .golden import to_numpy
from .one_op import call, make_spec, spec_key, tensor_leaves
from .results import OpByOpReport, OpRow
from .whole import pjrt_text, run_text_on_device

MODES = ("isolated", "chained")
DEFAULT_OP_TIMEOUT_S = 30.0


class _Recorder(torch.fx.Interpreter):
    """Runs the graph once, handing every aten call (with its concrete args) to `on_call`."""

    def __init__(self, gm, on_call):
        super().__init__(gm)
        self.on_call = on_call

    def run_node(self, n):
        if n.op != "call_function" or not isinstance(n.target, torch._ops.OpOverload):
            return super().run_node(n)
        args, kwargs = self.fetch_args_kwargs_from_env(n)
        spec = make_spec(n, args, kwargs)
        spec["inputs"] = [x.clone() for x in spec["inputs"]]  # in-place ops would change them under us
        out = super().run_node(n)
        self.on_call(n, spec, out)
        return out


def _location(node) -> str:
    loc = user_frame(frames_from_stack_trace(node.meta.get("stack_trace")))
    return loc.short if loc else ""


def _input_desc(spec) -> list:
    return [f"{'x'.join(map(str, x.shape)) or 'scalar'} {str(x.dtype).replace('torch.', '')}" for x in spec["inputs"]]


class _OpRunner:
    """Lower + (transform) + run one spec in the worker; the row's furthest stage, error, outputs."""

    def __init__(self, client: WorkerClient, timeout: float, transform: Optional[Callable]):
        self.client, self.timeout, self.transform = client, timeout, transform

    def run(self, spec: dict, node_name: str) -> dict:
        with tempfile.TemporaryDirectory(prefix="ttbench-op-") as tmp:
            return self._run(spec, node_name, tmp)

    def _run(self, spec: dict, node_name: str, tmp: str) -> dict:
        spec_path = os.path.join(tmp, "spec.pkl")
        text_path = os.path.join(tmp, "op.mlir")
        with open(spec_path, "wb") as f:  # pickle, not torch.save: it refuses torch.memory_format arguments
            pickle.dump(spec, f)
        out = {"furthest_stage": "fx", "error": None, "arrays": None}
        try:
            reply = self.client.request({"kind": "lower", "spec": spec_path, "out": text_path}, self.timeout)
            if not reply.get("ok"):
                out["furthest_stage"], out["error"] = reply.get("stage", "fx"), reply.get("error")
                return out
            out["furthest_stage"] = "stablehlo"
            with open(text_path) as f:
                text = f.read()
            if self.transform is not None:
                text = self.transform(text, spec["target"], node_name)
            inputs = [to_numpy(x) for x in spec["inputs"]]
            reply = run_text_on_device(self.client, pjrt_text(text), inputs, self.timeout)
        except WorkerDied as exc:
            out["error"] = f"worker crashed or hung: {exc}"
            return out
        if not reply.get("ok"):
            out["furthest_stage"], out["error"] = "stablehlo", reply.get("error")  # did not compile or run
            return out
        out["furthest_stage"] = "executed"
        out["arrays"] = reply["arrays"]
        return out


def _fill_row(row: OpRow, result: dict, golden_leaves: list, atol, rtol, min_pcc) -> list:
    """Compare and fill in the row; returns the device outputs as tensors (or None)."""
    row.furthest_stage, row.error = result["furthest_stage"], result["error"]
    arrays = result["arrays"]
    if arrays is None:
        row.ok = False
        return None
    golden = [to_numpy(t) for t in golden_leaves]
    if len(arrays) != len(golden):
        row.ok, row.error = False, f"{len(arrays)} outputs, PyTorch gives {len(golden)}"
        return None
    cmps = [compare(a, g, atol, rtol, min_pcc) for a, g in zip(arrays, golden)]
    row.pcc = min((c["pcc"] for c in cmps), default=1.0)
    abs_errors = [c["max_abs_error"] for c in cmps if c["max_abs_error"] is not None]
    row.max_abs_error = max(abs_errors, default=None)
    row.ok = all(c["ok"] for c in cmps)
    if not row.ok and row.error is None:
        row.error = f"pcc {row.pcc:.6f} below {min_pcc}" if row.pcc < min_pcc else "not allclose"
    return [torch.from_numpy(a.copy()) if a.dtype.kind != "V" else None for a in arrays]


def op_by_op(b, device: str = "cpu", stage: str = "stablehlo", mode: str = "isolated", pcc: float = 0.99,
             atol: float = 1e-2, rtol: float = 1e-2, timeout: float = DEFAULT_OP_TIMEOUT_S,
             transform: Optional[Callable] = None, progress: bool = True) -> OpByOpReport:
    """Run every aten op of `b`'s FX graph on `device` (see module doc). `transform(stablehlo_text, op, node)`,
    if given, may edit each op's StableHLO before it runs (to try a lowering change, or to test the tool)."""
    if mode not in MODES:
        raise BadInput(f"unknown op-by-op mode {mode!r}: choose one of {', '.join(MODES)}")
    if stage != "stablehlo":
        raise BadInput(f"op-by-op runs the stablehlo stage of each op (got stage={stage!r})")
    if b.fx_graph is None:
        raise BadInput(f"op-by-op needs an FX graph; the {b.frontend} frontend has none (use export or dynamo)")
    dev = find_device(device)
    if not dev.usable:
        raise BadInput(f"device {device!r} cannot run ops here: {dev.reason}")
    t0 = time.perf_counter()
    if mode == "isolated":
        rows, total, first, rerun = _isolated(b, dev.name, pcc, atol, rtol, timeout, transform, progress)
    else:
        rows, total, first, rerun = _chained(b, dev.name, pcc, atol, rtol, timeout, transform, progress)
    return OpByOpReport(model=b.model_name, stage=stage, device=dev.name, mode=mode, min_pcc=pcc, rows=rows,
                        total_ops=total, seconds=time.perf_counter() - t0, first_divergence=first, _rerun=rerun)


def _progress(total: int, desc: str, enabled: bool):
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, disable=not enabled, leave=False)


def _recorded_calls(b, timeout: float) -> list:
    """[(FX node, spec, output)] of every aten call in graph order, from one eager run of the FX graph in a forked
    copy of this process (the model's own ops, custom ones included, may abort or hang: that stays contained).
    The run gets 4x the per-op timeout, at least 10 s."""
    def record():
        calls = []
        with torch.no_grad():
            _Recorder(b.fx_graph, lambda node, spec, out: calls.append((node.name, spec, out))).run(
                *[v.clone() for v in b.argument_values])
        return calls

    nodes = {n.name: n for n in b.fx_graph.graph.nodes}
    try:
        calls = call_in_fork(record, max(4 * timeout, 10.0), "recording the graph's values (an eager run)")
    except ContainedFailure as exc:
        raise ModelFailed(f"op-by-op needs one eager run of the model's graph, and {exc}") from None
    return [(nodes[name], spec, out) for name, spec, out in calls]


def _isolated(b, device, min_pcc, atol, rtol, timeout, transform, progress):
    unique: dict = {}  # key -> [spec, golden output, row]
    total = [0]

    def on_call(node, spec, out):
        total[0] += 1
        key = spec_key(spec)
        if key not in unique:
            row = OpRow(index=len(unique), op=spec["target"], count=0, inputs=_input_desc(spec), locations=[],
                        furthest_stage="fx")
            unique[key] = [spec, [t.clone() for t in tensor_leaves(out)], row]
        row = unique[key][2]
        row.count += 1
        row.nodes.append(node.name)
        loc = _location(node)
        if loc and loc not in row.locations:
            row.locations.append(loc)

    for node, spec, out in _recorded_calls(b, timeout):
        on_call(node, spec, out)
    entries = list(unique.values())
    runner = _Rows(device, entries, min_pcc, atol, rtol, timeout, transform)
    client = shared_client(device)
    with _progress(len(entries), f"{b.model_name} ops", progress) as bar:
        for i in range(len(entries)):
            runner.run(client, i)
            bar.update(1)
    return [e[2] for e in entries], total[0], None, runner.rerun


class _Rows:
    """Runs entries [spec, golden outputs, OpRow] and can run one again by index (same inputs)."""

    def __init__(self, device, entries, min_pcc, atol, rtol, timeout, transform):
        self.device, self.entries = device, entries
        self.min_pcc, self.atol, self.rtol, self.timeout, self.transform = min_pcc, atol, rtol, timeout, transform

    def run(self, client, index: int):
        spec, golden, row = self.entries[index]
        t = time.perf_counter()
        result = _OpRunner(client, self.timeout, self.transform).run(spec, row.nodes[0])
        outputs = _fill_row(row, result, golden, self.atol, self.rtol, self.min_pcc)
        row.seconds = time.perf_counter() - t
        return outputs

    def rerun(self, index: int) -> OpRow:
        spec, golden, row = self.entries[index]
        fresh = OpRow(index=row.index, op=row.op, count=row.count, inputs=row.inputs, locations=row.locations,
                      furthest_stage="fx", nodes=row.nodes)
        self.entries[index] = [spec, golden, fresh]
        self.run(shared_client(self.device), index)
        return fresh


def _chained(b, device, min_pcc, atol, rtol, timeout, transform, progress):
    calls = []  # (node, golden output) in graph order

    calls = [(node, out) for node, _, out in _recorded_calls(b, timeout)]
    golden_of = {node: out for node, out in calls}
    device_env: dict = {}  # node -> the value the device produced (same structure as the golden)
    entries, first = [], None
    runner = _Rows(device, entries, min_pcc, atol, rtol, timeout, transform)
    placeholders = [n for n in b.fx_graph.graph.nodes if n.op == "placeholder"]
    env: dict = dict(zip(placeholders, [v.clone() for v in b.argument_values]))

    def value_of(n):
        return device_env[n] if n in device_env else env.get(n, golden_of.get(n))

    client = shared_client(device)
    with _progress(len(calls), f"{b.model_name} chained", progress) as bar:
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
            spec["inputs"] = [x.clone() for x in spec["inputs"]]
            row = OpRow(index=len(entries), op=spec["target"], count=1, inputs=_input_desc(spec),
                        locations=[l for l in [_location(node)] if l], furthest_stage="fx", nodes=[node.name])
            entries.append([spec, tensor_leaves(golden_of[node]), row])
            outputs = runner.run(client, row.index)
            if outputs is not None and None not in outputs:
                device_env[node] = _restructure(golden_of[node], outputs)
            # An op that could not run hands on the golden value, so later rows measure their own error.
            if first is None and row.pcc is not None and row.pcc < min_pcc:
                first = row
            bar.update(1)
    return [e[2] for e in entries], len(entries), first, runner.rerun


def _restructure(golden, tensors: list):
    """Device outputs (flat) in the structure of the golden output (a tensor or a tuple/list of them)."""
    if isinstance(golden, torch.Tensor):
        return tensors[0]
    it = iter(tensors)
    return type(golden)(next(it) if isinstance(g, torch.Tensor) else g for g in golden)
