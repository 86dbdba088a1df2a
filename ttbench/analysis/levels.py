"""What the compiler's optimizer changed between two optimization levels of one model, read from the two TTNN
programs alone (no run here: pipeline.compare_levels adds the numbers): per source line and module, the computing
ops (a fused activation counted with its op: `ttnn.matmul+relu`) and where their results live."""
from __future__ import annotations

from ..core import BadInput, BringupRecord, StageName
from ..records.levels import LevelComparison, LineChange
from ..tt.layouts import LayoutUnreadable, placement
from ..tt.program import BOOKKEEPING_OPS
from .fusion import fused_activation_kinds
from .placement import ttnn_program


def _level(b: BringupRecord) -> int:
    stage = b.stages.get(StageName.TTNN)
    level = stage.meta.get("optimization_level") if stage is not None else None
    if level is None:
        raise BadInput(f"comparing levels needs bringups compiled at a given level: bring {b.model_name} up with "
                       f"opt_level=0, 1 or 2")
    return level


def _kind(p) -> str:
    return "+".join([p.name] + fused_activation_kinds(p.op))


def _by_line(b: BringupRecord):
    """(location, module) -> (op kind counts, placement counts), in program order; and the computing ops' count."""
    program = ttnn_program(b, "comparing levels")
    lines: dict = {}
    computing = 0
    for p in program.ops():
        if p.name in BOOKKEEPING_OPS:
            continue
        computing += 1
        op = p.op
        key = (op.location.short if op.location else "", op.module or "")
        kinds, places = lines.setdefault(key, ({}, {}))
        kind = _kind(p)
        kinds[kind] = kinds.get(kind, 0) + 1
        if p.result_types and p.result_types[0] is not None:
            try:
                where = placement(p.result_types[0], program.aliases)
                label = where.label if where is not None else None
            except LayoutUnreadable:
                label = "layout unread"
            if label:
                places[label] = places.get(label, 0) + 1
    return lines, computing


def level_changes(a: BringupRecord, b: BringupRecord) -> LevelComparison:
    """The optimizer's changes from bringup `a`'s level to bringup `b`'s, line by line."""
    level_a, level_b = _level(a), _level(b)
    if a.model_name != b.model_name:
        raise BadInput(f"comparing levels compares one model: {a.model_name!r} and {b.model_name!r} differ")
    if level_a == level_b:
        raise BadInput(f"both bringups are at opt_level={level_a}: compare two different levels")
    lines_a, count_a = _by_line(a)
    lines_b, count_b = _by_line(b)
    report = LevelComparison(model=a.model_name, levels=(level_a, level_b), op_counts=(count_a, count_b))
    for key in list(lines_b) + [k for k in lines_a if k not in lines_b]:
        kinds_a, places_a = lines_a.get(key, ({}, {}))
        kinds_b, places_b = lines_b.get(key, ({}, {}))
        report.lines.append(LineChange(location=key[0], module=key[1], ops=(kinds_a, kinds_b),
                                       placements=(places_a, places_b)))
    return report
