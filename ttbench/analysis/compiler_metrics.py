"""The compiler's perf metrics (the file it writes at a given optimization level) tied to the program's ops and so to
source lines: the compiler names each op only by kind and module (`module[fc1]`), so an entry is matched to the
next program op, in program order, of the same kind and module whose result has the layout the entry states (its
FLOP counts: the same kind and module); an entry with no such op keeps an unknown line, never a guessed one."""
from __future__ import annotations

import re
from typing import Optional

from ..core import BringupRecord, StageName
from ..ir.op_head import TensorType
from ..records.compiler_metrics import CompilerMetrics, CompilerOp
from ..tt.layouts import LayoutUnreadable, placement
from ..tt.program import BOOKKEEPING_OPS
from .bound import op_flops, perf_metrics
from .placement import ttnn_program

# `module[fc1]`, `module[encoder.layer.0.attention.self]_decomp_matmul` (a decomposition's suffix), `unknown`
_MODULE_RE = re.compile(r"^module\[([^\]]*)\]")


def _module(location: str) -> Optional[str]:
    """The module path in the compiler's location for an op; None where it names none (`unknown`: it printed no
    module for an op that has one in the program, so any module matches)."""
    found = _MODULE_RE.match(location or "")
    return found.group(1) if found else None


def _placement(encoding: str, aliases: dict):
    try:
        return placement(TensorType(shape=(), element="", encoding=encoding), aliases)
    except LayoutUnreadable:
        return None


def _next_match(ops: list, start: int, name: str, module: Optional[str], layout, aliases: dict) -> Optional[int]:
    for k in range(start, len(ops)):
        p = ops[k]
        if p.name != name or module is not None and (p.op.module or "") != module:
            continue
        if layout is None:
            return k
        try:
            result = placement(p.result_types[0], aliases) if p.result_types else None
        except LayoutUnreadable:
            result = None
        if result is not None and result == layout:
            return k
    return None


def compiler_metrics(b: BringupRecord) -> CompilerMetrics:
    metrics = perf_metrics(b, "the compiler's own metrics (sharded, spilled, FLOPs per op) are a file")
    program = ttnn_program(b, "the compiler's metrics")
    ops = [p for p in program.main.ops if p.name not in BOOKKEEPING_OPS]
    report = CompilerMetrics(model=b.model_name,
                             optimization_level=b.stages[StageName.TTNN].meta.get("optimization_level"),
                             summary_figures=metrics.get("summary", {}), targets=metrics.get("perf_targets", {}))
    by_index: dict = {}
    cursor = 0
    for entry in metrics.get("shardable_operations", []):
        module = _module(entry.get("location", ""))
        op = CompilerOp(op=entry.get("operation", ""), module=entry.get("location", ""),
                        sharded=bool(entry.get("is_sharded")), spilled=bool(entry.get("is_spilled_to_dram")))
        layout = _placement(entry.get("layout_info", ""), program.aliases)
        found = _next_match(ops, cursor, op.op, module, layout, program.aliases) if layout else None
        if found is not None:
            cursor = found + 1
            op.index, op.location = ops[found].op.index, _line(ops[found])
            by_index[op.index] = op
        report.ops.append(op)
    cursor = 0
    for entry in metrics.get("flops", {}).get("per_op", []):
        name, module = entry.get("operation", ""), _module(entry.get("location", ""))
        found = _next_match(ops, cursor, name, module, None, program.aliases)
        known: Optional[CompilerOp] = by_index.get(ops[found].op.index) if found is not None else None
        op = known if known is not None else CompilerOp(op=name, module=entry.get("location", ""))
        if known is None:  # an op it counts FLOPs for but does not list as shardable
            if found is not None:
                op.index, op.location = ops[found].op.index, _line(ops[found])
            report.ops.append(op)
        op.flops, op.fidelity = entry.get("flops"), entry.get("math_fidelity", "")
        if found is not None:
            cursor = found + 1
            op.flops_agree = op_flops(ops[found]) == op.flops
    return report


def _line(p) -> str:
    return p.op.location.short if p.op.location else ""
