"""Const-eval advisor: subgraphs of a stage whose inputs are all constants or weights (a transpose of a weight,
a mask built from constants), which could be folded ahead of time or hoisted into tt-mlir's const-eval, compared
with what tt-mlir actually moved into const-eval functions at the ttnn stage."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..mlir_text import SSA_DEF_RE
from .constants import ITEM_SIZE, parse_tensor_type
from .op_kinds import is_constant_op

_OPERAND_RE = re.compile(r"%[\w$.-]+(?:#\d+)?")
_RESULT_TENSOR_RE = re.compile(r"tensor<([^<>]*)>")
WEIGHT_ARG_ROLES = ("parameter", "buffer", "constant")


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


def _result_bytes(text: str) -> int:
    head = text.rsplit(" loc(", 1)[0]
    tail = head.rsplit("->", 1)[-1] if "->" in head else head.rsplit(" : ", 1)[-1]
    m = _RESULT_TENSOR_RE.findall(tail)
    if not m:
        return 0
    parsed = parse_tensor_type(m[-1].split(",")[0])
    if not parsed:
        return 0
    shape, dtype = parsed
    n = 1
    for d in shape:
        n *= d
    return n * ITEM_SIZE.get(dtype, 4)


def const_eval_candidates(stage, arguments) -> list:
    """Maximal connected subgraphs of @main in `stage` computed only from weights and constants."""
    const_values = {f"%arg{i}": a.name for i, a in enumerate(arguments) if a.role in WEIGHT_ARG_ROLES}
    foldable = []  # (op, def name, operand names)
    for op in stage.ops:
        if op.attrs.get("func") != "main":
            continue
        m = SSA_DEF_RE.match(op.text)
        if not m:
            continue
        name = m.group(1)
        if is_constant_op(op.name):
            const_values[name] = "constant"
            continue
        operands = [o.split("#")[0] for o in _OPERAND_RE.findall(op.text[m.end():])]
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
                                      result_bytes=sum(_result_bytes(op.text) for op in sinks), inputs=inputs,
                                      locations=locations))
    return out


def const_eval_report(b) -> dict:
    """Candidates in stablehlo next to what tt-mlir put into const-eval functions (when ttnn compiled)."""
    stage = b.stages.get("stablehlo")
    candidates = const_eval_candidates(stage, b.arguments) if stage is not None and stage.ok else []
    ttnn = b.stages.get("ttnn")
    tt = None
    if ttnn is not None and ttnn.ok and "const_eval_ops" in ttnn.meta:
        tt = {"functions": ttnn.meta["const_eval_functions"], "ops": ttnn.meta["const_eval_ops"]}
    return {"candidates": candidates, "candidate_ops": sum(len(c.ops) for c in candidates), "tt_const_eval": tt}
