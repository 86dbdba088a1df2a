"""Const-eval advisor: subgraphs of a stage whose inputs are all constants or weights (a transpose of a weight,
a mask built from constants), which could be folded ahead of time or hoisted into tt-mlir's const-eval, compared
with what tt-mlir actually moved into const-eval functions at the ttnn stage."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core import BringupRecord, Role, StageName
from .op_kinds import is_constant_op

WEIGHT_ARG_ROLES = (Role.PARAMETER, Role.BUFFER, Role.CONSTANT)


@dataclass
class ConstEvalCandidate:
    ops: list  # op names in printed order
    indices: list  # op indices in the stage
    result_bytes: int  # bytes of the values the subgraph hands to the rest of the graph
    inputs: list  # the weights/constants it starts from (argument names or "constant")
    locations: list = field(default_factory=list)  # source lines (short form)

    def __str__(self) -> str:
        where = f" at {', '.join(self.locations[:3])}" if self.locations else ""
        return f"{' -> '.join(self.ops[:6])}{' ...' if len(self.ops) > 6 else ''} on {', '.join(self.inputs[:3])}{where}"


def const_eval_candidates(stage, arguments) -> list:
    """Maximal connected subgraphs of @main in `stage` computed only from weights and constants."""
    const_values = {f"%arg{i}": a.name for i, a in enumerate(arguments) if a.role in WEIGHT_ARG_ROLES}
    foldable = []  # (op, def name, operand names)
    for op in stage.ops:
        if op.attrs.get("func") != "main" or not op.attrs.get("results"):
            continue
        name = op.attrs["results"][0].split("#")[0]
        if is_constant_op(op.name):
            const_values[name] = "constant"
            continue
        operands = [o.split("#")[0] for o in op.attrs["operands"]]
        if operands and all(o in const_values for o in operands):
            const_values[name] = "derived"
            foldable.append((op, name, operands))
    # Group foldable ops that feed one another (union-find on def names).
    parent = {name: name for _, name, _ in foldable}

    def root(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for _, name, operands in foldable:
        for o in operands:
            if o in parent:
                parent[root(o)] = root(name)
    groups: dict = {}
    for op, name, operands in foldable:
        groups.setdefault(root(name), []).append((op, name, operands))
    out = []
    for members in groups.values():
        defined = {n for _, n, _ in members}
        inputs = sorted({const_values[o] for _, _, ops in members for o in ops
                         if o not in defined and const_values[o] != "derived"})
        used_inside = {o for _, _, ops in members for o in ops}
        sinks = [op for op, n, _ in members if n not in used_inside]
        locations = sorted({op.location.short for op, _, _ in members if op.location})
        out.append(ConstEvalCandidate(ops=[op.name for op, _, _ in members], indices=[op.index for op, _, _ in members],
                                      result_bytes=sum(op.attrs["result_bytes"] for op in sinks), inputs=inputs,
                                      locations=locations))
    return out


def const_eval_report(b: BringupRecord) -> dict:
    """Candidates in stablehlo next to what tt-mlir put into const-eval functions (when ttnn compiled)."""
    stage = b.stages.get(StageName.STABLEHLO)
    candidates = const_eval_candidates(stage, b.arguments) if stage is not None and stage.ok else []
    ttnn = b.stages.get(StageName.TTNN)
    tt = None
    if ttnn is not None and ttnn.ok and "const_eval_ops" in ttnn.meta:
        tt = {"functions": ttnn.meta["const_eval_functions"], "ops": ttnn.meta["const_eval_ops"]}
    return {"candidates": candidates, "candidate_ops": sum(len(c.ops) for c in candidates), "tt_const_eval": tt}
