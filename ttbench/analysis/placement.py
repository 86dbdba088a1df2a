"""Where the compiler put each op's result, read from the TTNN program's layouts (tt/layouts.py): the question the
optimization levels answer differently (level 0: every device tensor interleaved in DRAM; 1-2: L1, sharded)."""
from __future__ import annotations

from ..core import BadInput, BringupRecord, StageName
from ..records.placement import OpPlacement, PlacementReport
from ..tt.layouts import LayoutUnreadable, placement
from ..tt.program import Program, ProgramError, parse_program

def ttnn_program(b: BringupRecord, what: str) -> Program:
    """The ttnn stage's program as its text reads now; BadInput naming `what` needed it when there is none."""
    stage = b.stages.get(StageName.TTNN)
    if stage is None or not stage.ok:
        why = "it was not brought up (tt=False)" if stage is None else f"it did not compile: {stage.error}"
        raise BadInput(f"{what} reads the ttnn program, and {why}")
    try:
        return parse_program(StageName.TTNN, stage.full_text())
    except ProgramError as exc:
        raise BadInput(f"{what} cannot read the ttnn program: {exc}") from exc


def placement_report(b: BringupRecord) -> PlacementReport:
    program = ttnn_program(b, "placement")
    report = PlacementReport(model=b.model_name,
                             optimization_level=b.stages[StageName.TTNN].meta.get("optimization_level"))
    for p in program.ops():
        if p.name == "ttcore.load_cached" or not p.result_types:  # its results are its const-eval function's
            continue
        try:
            where = placement(p.result_types[0], program.aliases)
        except LayoutUnreadable as exc:
            report.unread.append(f"{p.name} #{p.op.index}: {exc}")
            continue
        if where is None:
            continue
        op = p.op
        report.ops.append(OpPlacement(index=op.index, op=op.name, location=op.location.short if op.location else "",
                                      module=op.module or "", placement=where.label, buffer=where.buffer,
                                      memory_layout=where.memory_layout, grid=list(where.grid),
                                      const_eval="const_eval" in (op.attrs.get("func") or "")))
    return report
