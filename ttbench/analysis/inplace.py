"""In-place ops: where a graph mutates a tensor, and what each later stage made of it (lineage).

FX: aten overloads with a mutable schema, `Tensor.*_` method calls, `operator.setitem` and the in-place
operators, functions called with inplace=True. Torch dialect: `torch.aten.*_` ops, ops on non-value tensors
(`!torch.tensor`), and the copy/overwrite ops that model mutation. Lineage follows the source line.
"""
from __future__ import annotations

import re
from typing import Optional

from ..core import FindingKind, Op, SourceLoc, Stage, StageName
from ..stages.fx import fx_node_mutates
from ..records.findings import Finding
from .fusion import analyze_fusion
from .op_kinds import kinds_of, needs_location, op_kind

_MUTATION_OPS = frozenset({"torch.overwrite.tensor.contents", "torch.copy.to_tensor", "torch.copy.to_vtensor"})
_TORCH_INPLACE_RE = re.compile(r"^torch\.aten\.(?!_*[a-z0-9]*__)([a-z0-9_]*[a-z0-9]_)(\.|$)")


def torch_op_mutates(name: str, text: str) -> bool:
    return name in _MUTATION_OPS or bool(_TORCH_INPLACE_RE.match(name)) or "!torch.tensor" in text


def inplace_ops(stage: Stage) -> list:
    """The ops of `stage` that mutate a tensor."""
    if stage.name == StageName.FX and stage.module is not None:
        nodes = {n.name: n for n in stage.module.graph.nodes}
        return [op for op in stage.ops if op.attrs.get("node") in nodes and fx_node_mutates(nodes[op.attrs["node"]])]
    if stage.name == StageName.TORCHFX:
        return [op for op in stage.ops if torch_op_mutates(op.name, op.text)]
    return []


class StageLines:
    """Each stage's ops by source line and the indexes of those that mutate, made once per stage: lineage asks it
    for every in-place op, and a model with hundreds of them (every `inplace=True` activation) made it quadratic."""

    def __init__(self):
        self._made: dict = {}

    def of(self, stage: Stage) -> tuple:
        """({source line: the ops there that should point at one}, {index of each op that mutates})."""
        key = id(stage)
        if key not in self._made:
            by_line: dict = {}
            for o in stage.ops:
                if o.location is not None and needs_location(o.name):
                    by_line.setdefault(o.location, []).append(o)
            self._made[key] = (stage, by_line, {o.index for o in inplace_ops(stage)})  # held: its id is not reused
        return self._made[key][1:]


def lineage(op, later_stages: list, fused: Optional[dict] = None, lines: Optional[StageLines] = None) -> dict:
    """What each later stage has at the op's source line: {stage: {"status", "ops", "became"}}, status one of
    "functionalized", "still in-place", "fused" (its activation runs inside another op: `fused` is
    fusion.analyze_fusion's answer, and "into" says where), "gone", "stage failed". "ops" are all the line's ops,
    "became" those of the in-place op's own kind (relu_ -> relu, maximum), what the op itself turned into.
    `lines`: the stages' ops by line, when the caller asks for many ops."""
    out = {}
    kinds = kinds_of(op_kind(op.name))
    lines = lines or StageLines()
    for stage in later_stages:
        if not stage.ok:
            out[stage.name] = {"status": "stage failed", "ops": [], "error": stage.error}
            continue
        by_line, mutating = lines.of(stage)
        same_line = by_line.get(op.location, [])
        if not same_line:
            into = (fused or {}).get(stage.name, {}).get(op.location)
            out[stage.name] = {"status": "fused", "ops": [], "into": str(into)} if into is not None \
                else {"status": "gone", "ops": []}
            continue
        names = sorted({o.name for o in same_line})
        status = "still in-place" if any(o.index in mutating for o in same_line) else "functionalized"
        out[stage.name] = {"status": status, "ops": names,
                           "became": sorted({o.name for o in same_line if op_kind(o.name) in kinds}),
                           "inplace_ops": sorted({o.name for o in same_line if o.index in mutating})}
    return out


def _describe(lineage_map: dict) -> str:
    parts = []
    for stage, entry in lineage_map.items():
        if entry["status"] == "still in-place":
            parts.append(f"{stage}: still in-place ({', '.join(entry['inplace_ops'])})")
        elif entry["status"] == "functionalized":
            ops = entry.get("became") or entry["ops"]
            shown = ", ".join(ops[:4] + (["..."] if len(ops) > 4 else []))
            what = shown if entry.get("became") else f"the line's {shown}"
            parts.append(f"{stage}: functionalized into {what}" if stage in ("fx", "torchfx", "stablehlo")
                         else f"{stage}: {what}")
        elif entry["status"] == "fused":
            parts.append(f"{stage}: {entry['into']}")
        else:
            parts.append(f"{stage}: {entry['status']}")
    return "; ".join(parts)


def analyze_inplace(bringup, fused: Optional[dict] = None):
    """-> (findings, {stage: {"inplace": count}})."""
    stages = list(bringup.stages.values())
    findings, columns = [], {}
    fused = analyze_fusion(bringup) if fused is None else fused
    lines = StageLines()
    for i, stage in enumerate(stages):
        if not stage.ok or stage.name not in ("fx", "torchfx"):
            continue
        ops = inplace_ops(stage)
        updates = _state_updates(stage)
        # Lineage runs to the last stage: what the op became there, or the op its activation was fused into.
        later = stages[i + 1:]
        rewritten = _functionalized_by_export(stage, later, fused, lines)
        findings.extend(updates + rewritten)
        columns[stage.name] = {"inplace": len(ops) + len(updates) + len(rewritten)}
        for op in ops:
            lin = lineage(op, later, fused, lines) if op.location else {}
            findings.append(Finding(
                kind=FindingKind.INPLACE, stage=stage.name, op=op.name, location=op.location,
                message=f"{op.name} mutates its input" + (f" -> {_describe(lin)}" if lin else
                                                          " (no source location to follow it by)"),
                details={"index": op.index, "lineage": lin}))
    return findings, columns


def _functionalized_by_export(stage: Stage, later: list, fused: dict, lines: StageLines) -> list:
    """The in-place ops the model's code has and torch.export rewrote out of place before the fx stage (so that
    stage shows none): one finding each, with what every stage has at its line, and the frontend that keeps them."""
    out = []
    for written in stage.meta.get("inplace_rewritten", ()):
        loc = SourceLoc(written["file"], written["line"]) if written.get("file") else None
        op = Op(index=-1, name=written["op"], location=loc)
        lin = lineage(op, [stage] + later, fused, lines) if loc else {}
        functional = ".".join(written["op"].split(".")[:2]).rstrip("_") + "."  # aten.add_.Tensor -> aten.add.
        shown = next((o.index for o in stage.ops if loc and o.location == loc and o.name.startswith(functional)),
                     None)  # the op it became, which the view marks
        out.append(Finding(
            kind=FindingKind.INPLACE, stage=stage.name, op=written["op"], location=loc,
            message=f"{written['op']} in the model's code was functionalized by torch.export"
                    + (f" -> {_describe(lin)}" if lin else " (no source location to follow it by)")
                    + "; the dynamo frontend keeps in-place ops as written (frontend='dynamo')",
            details={"index": shown, "lineage": lin, "functionalized_by": "torch.export"}))
    return out


def _state_updates(stage: Stage) -> list:
    """torch.export functionalizes an in-place update of a graph input or buffer (a KV cache's index_copy_) into a
    new value the graph returns: the mutation is gone from the IR but not from the model. One finding each."""
    out = []
    for m in stage.meta.get("mutations", ()):
        loc = SourceLoc(m["file"], m["line"]) if m.get("file") else None
        how = f"by {m['op']}" if m.get("op") else "through a view"
        out.append(Finding(
            kind=FindingKind.INPLACE, stage=stage.name, op=m.get("op"), location=loc,
            message=f"{m['kind']} {m['target']} is updated in place {how} (role 'cache'): torch.export "
                    f"functionalized it, and the graph returns its new value as output {m['output']}",
            details={"argument": m["target"], "output": m["output"]}))
    return out

