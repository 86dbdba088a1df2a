"""Activations the Tenstorrent compiler fused into another op: a source line (a `relu_()`, a ReLU6 module, a GELU)
whose op has no TTNN op of its own because it runs as the fused activation of the op that computes its input (a
conv2d's `conv2d_config.activation`, a binary op's `activations`, a matmul's `activation`). Such a line is not a
lost location: every view says where it went ("fused into ttnn.conv2d #69 at In[12]:10, as its activation relu").

Found through the previous stage's def-use, never guessed from names alone: the line's op (ttir.relu) reads the
value of an op at line L; a TTNN op at line L carries a fused activation of the same kind.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .op_kinds import COMPOSED_ACTIVATIONS, kinds_of, needs_location, op_kind

# How TTNN prints a fused activation: `#ttnn.unary_with_param<op_type = relu>` in a binary op's lists (on its
# result: `activations`; on an input before the op: `input_tensor_a_activations`, `..._b_...`), in conv2d_config's
# `activation`, or a string (linear's and matmul's `activation = "gelu"`).
_LIST_RE = re.compile(r"\b(activations|input_tensor_a_activations|input_tensor_b_activations) = \[([^\]]*)\]")
_KIND_RE = re.compile(r"op_type = (\w+)")
_STRING_RE = re.compile(r'\bactivation = "(\w+)"')
_WHERE = {"activations": "result", "input_tensor_a_activations": "input a", "input_tensor_b_activations": "input b"}


def fused_activations(op) -> list:
    """[(kind, where)] of the activations fused into a TTNN op, as printed: where "result" (applied after the op's
    own computation), "input a" or "input b" (applied to that operand first); [] for any other op."""
    if not op.name.startswith("ttnn."):
        return []
    out = [(kind, _WHERE[m.group(1)]) for m in _LIST_RE.finditer(op.text) for kind in _KIND_RE.findall(m.group(2))]
    rest = _LIST_RE.sub("", op.text)  # conv2d_config's activation, a matmul's string
    out += [(kind, "result") for kind in _KIND_RE.findall(rest) + _STRING_RE.findall(rest)]
    return out


def fused_activation_kinds(op) -> list:
    """The kinds of the activations fused into a TTNN op (["relu"]); [] for any other op."""
    return [kind for kind, _ in fused_activations(op)]


@dataclass(frozen=True)
class FusedInto:
    """Where a source line's activation went in a stage: the ops (indices) it runs inside, as which activation."""

    kind: str
    where: str  # "result": the host's output activation; "input a"/"input b": applied to that input of the host
    hosts: tuple  # op indices in the stage
    host_names: tuple
    host_lines: tuple  # the hosts' source lines (short form)

    def __str__(self) -> str:
        hosts = ", ".join(f"{name} #{i} at {line}" for name, i, line in
                          list(zip(self.host_names, self.hosts, self.host_lines))[:3])
        more = f" and {len(self.hosts) - 3} more" if len(self.hosts) > 3 else ""
        how = f"as its activation {self.kind}" if self.where == "result" else \
            f"as the activation {self.kind} of its {'first' if self.where == 'input a' else 'second'} input"
        return f"fused into {hosts}{more} ({how})"


def fused_lines(stage, previous) -> dict:
    """{SourceLoc: FusedInto} for the lines with ops in `previous` and none in `stage` whose activation `stage`
    runs fused into the op that computes its input."""
    here = {op.location for op in stage.ops if op.location is not None and needs_location(op.name)}
    # (source line, where, a kind the earlier stage may call it) -> (kind, TTNN op) with that fused activation
    hosts_at: dict = {}
    for op in stage.ops:
        for kind, where in fused_activations(op):
            if op.location is not None:
                for name in kinds_of(kind) | COMPOSED_ACTIVATIONS.get(kind, set()):
                    hosts_at.setdefault((op.location, "input" if where != "result" else where, name),
                                        []).append((kind, where, op))
    if not hosts_at:
        return {}
    producer: dict = {}
    users: dict = {}
    for op in previous.ops:
        func = op.attrs.get("func") or ""
        for result in op.attrs.get("results", ()):
            producer[(func, result)] = op
        for operand in op.attrs.get("operands", ()):
            users.setdefault((func, operand), []).append(op)

    def past_the_line(op, loc, step):  # follow `step` past the line's own ops (relu6: a maximum, then a minimum)
        seen, frontier = 0, [op]
        while frontier and seen < 64:
            outside = [o for o in frontier if o.location != loc]
            if outside:
                return outside
            frontier = [n for o in frontier for n in step(o)]
            seen += 1
        return []

    def inputs(op):
        operands = op.attrs.get("operands", ())
        first = producer.get((op.attrs.get("func") or "", operands[0])) if operands else None
        return [first] if first is not None else []

    def outputs(op):
        return [u for r in op.attrs.get("results", ()) for u in users.get((op.attrs.get("func") or "", r), ())]

    out: dict = {}
    for op in previous.ops:
        loc = op.location
        if loc is None or loc in here or not needs_location(op.name):
            continue
        kind = op_kind(op.name)
        # fused after the op that made its input (a conv's activation), or before the op that uses its result
        hosts = [h for src in past_the_line(op, loc, inputs) if src.location is not None
                 for h in hosts_at.get((src.location, "result", kind), ())]
        hosts += [h for user in past_the_line(op, loc, outputs) if user.location is not None
                  for h in hosts_at.get((user.location, "input", kind), ())]
        if not hosts:
            continue
        known = out.get(loc)
        merged = {h.index: (k, w, h) for k, w, h in hosts}
        if known is not None:
            merged.update({i: (known.kind, known.where, stage.ops[i]) for i in known.hosts})
        chosen = [merged[i] for i in sorted(merged)]
        out[loc] = FusedInto(chosen[0][0], chosen[0][1], tuple(h.index for _, _, h in chosen),
                             tuple(h.name for _, _, h in chosen), tuple(h.location.short for _, _, h in chosen))
    return out


def analyze_fusion(bringup) -> dict:
    """{stage: {SourceLoc: FusedInto}} over every stage against the one before it."""
    out, previous = {}, None
    for stage in bringup.stages.values():
        if not stage.ok:
            previous = None
            continue
        if previous is not None:
            found = fused_lines(stage, previous)
            if found:
                out[stage.name] = found
        previous = stage
    return out
