"""Location coverage: which ops still point at the user's source, and where source lines drop out.

Counted per stage: ops with a user source location / ops that should have one (see op_kinds for what is left
out). A source line with ops at one stage and none at the next is a finding: either its ops were folded away or
the step lost their locations; the message says which is likelier.
"""
from __future__ import annotations

from collections import Counter
from typing import Optional

from ..core import FindingKind
from ..records.findings import Finding
from ..ir.locations import is_user_file
from .fusion import analyze_fusion
from .op_kinds import needs_location


def coverage(stage) -> dict:
    locatable = [op for op in stage.ops if needs_location(op.name)]
    located = [op for op in locatable if op.location is not None]
    return {"located": len(located), "locatable": len(locatable),
            "coverage": len(located) / len(locatable) if locatable else None}


def _fx_trace_setting() -> str:
    import torch.fx.config

    if getattr(torch.fx.config, "do_not_emit_stack_traces", False):
        return " torch.fx.config.do_not_emit_stack_traces is True: FX tracing records no stack traces."
    return ""


def _sourceless_code(ops, model) -> str:
    """Why no op has a location when the model's code ran under a made-up file name (`exec` of a string, a magic
    ttbench cannot map back to its cell): torch records no frame of it, or one ttbench cannot place."""
    files = {f.file for op in ops for f in op.chain if f.file.startswith("<") and not is_user_file(f.file)}
    code = getattr(getattr(type(model), "forward", None), "__code__", None)
    if code is not None and code.co_filename.startswith("<") and not is_user_file(code.co_filename):
        files.add(code.co_filename)
    if not files:
        return ""
    names = ", ".join(f"`{n}`" for n in sorted(files)[:3])
    return (f" The model's code ran as {names} (exec of a string, or a cell magic),"
            f" which keeps no source: define the model in a plain cell or a file.")


def analyze_coverage(bringup, fused: Optional[dict] = None):
    """-> (findings, {stage: {"located", "locatable", "coverage", "lines_lost"}}). `fused`: fusion.analyze_fusion's
    answer (made here when not given)."""
    fused = analyze_fusion(bringup) if fused is None else fused
    findings, columns = [], {}
    previous = None
    for stage in bringup.stages.values():
        if not stage.ok:
            previous = None
            continue
        columns[stage.name] = {**coverage(stage), "lines_lost": 0}
        unlocated = [op for op in stage.ops if needs_location(op.name) and op.location is None]
        if unlocated and not any(op.location for op in stage.ops):
            hint = _fx_trace_setting() if stage.name in ("fx", "torchfx") else ""
            hint = hint or _sourceless_code(unlocated, getattr(bringup, "model", None))
            findings.append(Finding(kind=FindingKind.LOCATION_LOST, stage=stage.name, op=None, location=None,
                                    message=f"no op of {stage.name} has a source location ({len(unlocated)} ops)."
                                            + hint, details={"unlocated": len(unlocated)}))
        else:
            for name, count in sorted(Counter(op.name for op in unlocated).items()):
                first = next(op for op in unlocated if op.name == name)
                findings.append(Finding(kind=FindingKind.LOCATION_LOST, stage=stage.name, op=name, location=None,
                                        message=f"{count} {name} op(s) without a source location",
                                        details={"count": count, "index": first.index}))
        if previous is not None and stage.ops:
            here = {op.location for op in stage.ops if op.location}
            before = Counter(op.location for op in previous.ops if op.location and needs_location(op.name))
            inside = fused.get(stage.name, {})  # not lost: run inside another op (said so in every view)
            lost = [loc for loc in before if loc not in here and loc not in inside]
            columns[stage.name]["lines_lost"] = len(lost)
            why = (f"{stage.name} has {len(unlocated)} op(s) without a location: the step may have dropped it"
                   if unlocated else f"every {stage.name} op has a location: the ops were folded away")
            for loc in lost:
                names = sorted({op.name for op in previous.ops if op.location == loc and needs_location(op.name)})
                findings.append(Finding(
                    kind=FindingKind.LOCATION_LOST, stage=stage.name, op=None, location=loc,
                    message=f"{loc.short} has {before[loc]} op(s) in {previous.name} ({', '.join(names[:3])}"
                            f"{', ...' if len(names) > 3 else ''}) and none in {stage.name}; {why}",
                    details={"previous_stage": previous.name, "previous_ops": names}))
        previous = stage
    return findings, columns
