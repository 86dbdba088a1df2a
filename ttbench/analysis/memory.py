"""What the TTNN program keeps on the chip across each op, read from the program itself: each tensor's layout
gives its buffer and its tile-padded bytes (per core in L1), the program's `ttnn.deallocate`s end its life, and
the system descriptor it was compiled for gives the limits. Works on meta-weight bringups: nothing runs."""
from __future__ import annotations

from typing import Optional

from ..core import BadInput, BringupRecord, StageName
from ..records.memory import MemoryReport, OpMemory
from ..tt.layouts import LayoutUnreadable, bytes_per_core, chip_limits, placement, tensor_bytes
from .placement import ttnn_program

_WEIGHT_ROLES = ("parameter", "constant")


def memory_report(b: BringupRecord) -> MemoryReport:
    program = ttnn_program(b, "memory")
    limits = chip_limits(program.aliases)
    if limits is None:
        raise BadInput("the ttnn program states no system descriptor with the chip's L1 and DRAM sizes: nothing "
                       "to measure against")
    report = MemoryReport(model=b.model_name, chip=limits.to_dict(),
                          optimization_level=b.stages[StageName.TTNN].meta.get("optimization_level"))
    main = program.main
    live: dict = {}  # SSA name -> (L1 bytes per core, DRAM bytes, is a weight)
    totals = [0, 0, 0, 0]  # L1, DRAM, L1 weights, DRAM weights

    def place(name: str, t, weight: bool, what: str) -> None:
        try:
            where = placement(t, program.aliases)
        except LayoutUnreadable as exc:
            report.unsized.append(f"{what}: {exc}")
            return
        if where is None or where.buffer == "system_memory":
            return
        size: Optional[int] = bytes_per_core(where, limits.worker_cores) if where.buffer == "l1" \
            else tensor_bytes(where)
        if size is None:
            report.unsized.append(f"{what}: element type {where.element}")
            return
        sizes = (size, 0) if where.buffer == "l1" else (0, size)
        if name in live:
            free(name)
        live[name] = (*sizes, weight)
        _add(totals, sizes, weight, 1)

    def free(name: str) -> None:
        l1, dram, weight = live.pop(name)
        _add(totals, (l1, dram), weight, -1)

    roles = main.argument_roles or [""] * len(main.arguments)
    for name, t, role, given in zip(main.arguments, main.argument_types, roles, main.argument_names):
        place(name, t, role in _WEIGHT_ROLES, f"argument {given or name}")
    for p in main.ops:
        if p.name == "ttnn.deallocate":
            for operand in p.operands:
                if operand in live:
                    free(operand)
            continue
        weight = p.name == "ttcore.load_cached"  # const-eval's results: weights, made once
        for name, t in zip(p.results, p.result_types):
            place(name, t, weight, f"{p.name} #{p.op.index}")
        op = p.op
        report.ops.append(OpMemory(index=op.index, op=op.name, location=op.location.short if op.location else "",
                                   l1_per_core=totals[0], dram=totals[1], l1_weights=totals[2],
                                   dram_weights=totals[3], live=len(live)))
    return report


def _add(totals: list, sizes: tuple, weight: bool, sign: int) -> None:
    totals[0] += sign * sizes[0]
    totals[1] += sign * sizes[1]
    if weight:
        totals[2] += sign * sizes[0]
        totals[3] += sign * sizes[1]
