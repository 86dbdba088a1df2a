"""An ideal-time bound for the TTNN program, op by op: each op of the entry function held to the compiler's own
figures for the chip (peak FLOP/s at the op's math fidelity, DRAM bandwidth, from the perf metrics it writes when an
optimization level is asked for). FLOPs come from the op's tensor types, DRAM bytes from its operands' and results'
layouts. Const-eval work (run once, at load) is not part of an inference and is left out."""
from __future__ import annotations

import json
import math
from typing import Optional

from ..core import BadInput, BringupRecord, StageName
from ..ir.attributes import Opaque
from ..records.bound import BoundReport, OpBound
from ..stages.tt import PERF_METRICS_FILE
from ..tt.layouts import LayoutUnreadable, placement, tensor_bytes
from ..tt.program import BOOKKEEPING_OPS, ProgramOp
from .op_kinds import is_bookkeeping, moves_only
from .placement import ttnn_program


def perf_metrics(b: BringupRecord, what: str) -> dict:
    """The compiler's perf metrics for the ttnn stage; BadInput, finishing "`what` it writes when an optimization
    level is asked for", when it wrote none."""
    text = b.stages[StageName.TTNN].artifacts.get(PERF_METRICS_FILE)
    if not text:
        raise BadInput(f"{what} it writes when an optimization level is asked for: bring the model up with "
                       f"opt_level=0, 1 or 2")
    return json.loads(text)


def time_bound(b: BringupRecord) -> BoundReport:
    program = ttnn_program(b, "the ideal-time bound")
    stage = b.stages[StageName.TTNN]
    metrics = perf_metrics(b, "the ideal-time bound holds each op to the compiler's own figures for the chip "
                              "(peak FLOP/s by math fidelity, DRAM bandwidth), which")
    flops_figures, targets = metrics.get("flops", {}), metrics.get("perf_targets", {})
    peaks = {"flops_by_fidelity": flops_figures.get("peak_flops_per_sec_by_fidelity", {}),
             "peak_flops": flops_figures.get("peak_flops_per_sec"),
             "dram_bytes_per_s": targets.get("dram_bandwidth_bytes_per_sec")}
    if not peaks["peak_flops"] or not peaks["dram_bytes_per_s"]:
        raise BadInput(f"the compiler's perf metrics state no peak FLOP/s or DRAM bandwidth: {sorted(targets)}")
    roofline_ms = targets.get("roofline_ms")
    report = BoundReport(model=b.model_name, optimization_level=stage.meta.get("optimization_level"), peaks=peaks,
                         compiler_roofline_s=roofline_ms / 1e3 if roofline_ms else None)
    for p in program.main.ops:
        if p.name in BOOKKEEPING_OPS:
            continue
        fidelity = _fidelity(p)
        peak = peaks["flops_by_fidelity"].get(fidelity) or peaks["peak_flops"]
        flops = op_flops(p)
        sizes = [_dram_bytes(t, program.aliases) for t in (*p.operand_types, *p.result_types)]
        report.unsized += sum(size is None for size in sizes)
        dram = sum(size or 0 for size in sizes)
        op = p.op
        report.ops.append(OpBound(index=op.index, op=op.name, location=op.location.short if op.location else "",
                                  flops=flops, fidelity=fidelity if fidelity in peaks["flops_by_fidelity"] else
                                  "default", dram_bytes=dram, compute_s=flops / peak,
                                  memory_s=dram / peaks["dram_bytes_per_s"]))
    return report


def _fidelity(p: ProgramOp) -> str:
    config = p.attributes.get("compute_config")
    if isinstance(config, Opaque):
        found = config.fields().get("math_fidelity")
        if isinstance(found, Opaque):
            return found.name.lstrip("#") or found.body
        if isinstance(found, str):
            return found
    return "default"


def _elements(t) -> int:
    return math.prod(t.shape) if t is not None else 0


def op_flops(p: ProgramOp) -> int:
    """FLOPs from the op's types: matmul/linear 2·M·N·K, conv2d 2·outputs·C_in/groups·kh·kw, one per result element
    otherwise; 0 for ops that only move data."""
    name = p.name
    if is_bookkeeping(name) or moves_only(name) or not p.result_types:
        return 0
    out = p.result_types[0]
    if name in ("ttnn.matmul", "ttnn.linear") and len(p.operand_types) >= 2 and p.operand_types[0] is not None:
        a = p.operand_types[0].shape
        k = a[-2] if p.attributes.get("transpose_a") is True else a[-1]
        return 2 * _elements(out) * k
    if name == "ttnn.conv2d":
        per_output = 2 * _number(p.attributes.get("in_channels", 0)) // max(1, _number(p.attributes.get("groups", 1)))
        kernel = p.attributes.get("kernel_size") or [1, 1]
        return per_output * math.prod(_number(k) for k in kernel) * _elements(out)
    return _elements(out)


def _number(value) -> int:
    return int(getattr(value, "value", value))  # `3 : i32` reads as a TypedNumber


def _dram_bytes(t, aliases: dict) -> Optional[int]:
    """Bytes of a DRAM tensor, 0 for one elsewhere, None when its layout or element type cannot be read."""
    try:
        where = placement(t, aliases)
    except LayoutUnreadable:
        return None
    if where is None or where.buffer != "dram":
        return 0
    return tensor_bytes(where)
