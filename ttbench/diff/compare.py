"""`tb.diff(a, b)` / `ttbench diff A B`: what changed between two bringups, per stage, without the noise.

Both sides are export folders (a Bringup is exported to a temporary one first), so one code path serves notebooks,
the CLI and CI. Before comparing, each op is normalised: SSA names dropped, its location taken out (locations are
compared on their own), weight payloads replaced by a hash of their bytes; source files are compared by file name
and line, so two checkouts in different folders agree. MLIR prints attribute dictionaries sorted by name, so their
order needs no work; JSON (manifest, findings) is compared as data.

Ops are matched by source line and op kind: the report says "at loader.py:15, aten.relu.default became
aten.gelu.default" (and, for a kind on both sides, the part of its text that changed: `aten.mul.Tensor: 0.5 ->
0.25`), and a line's ops that moved to another line are location changes, not op changes.
Tensor constants are their own category: each constant op's value (literal text, or the hash of its weight bytes)
is compared with its shape and element type, so a changed weight or lowering literal shows at every stage that holds
it, with its source line. Weights passed as arguments are compared by the hashes of weights.safetensors.
"""
from __future__ import annotations

import difflib
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from ..analysis.op_kinds import is_constant_op, needs_location, states_a_value
from ..core import BadInput, view_method
from ..proc.scratch import temp_folder
from ..records.results import FURTHEST_STAGES
from .sides import Side, load_side, weight_digests
from .text import render_text


@dataclass
class StageDiff:
    stage: str
    status: Optional[tuple] = None  # (before, after) when ok/failed changed
    op_changes: list = field(default_factory=list)  # {"line", "removed": {op: n}, "added": {op: n}, "differs": [...]}
    moved: list = field(default_factory=list)  # {"op", "from", "to", "count"}: same op, other source line
    histogram: dict = field(default_factory=dict)  # op name -> (before, after) where counts differ
    budget: dict = field(default_factory=dict)  # summary column -> (before, after) where it differs
    constants: list = field(default_factory=list)  # {"line", "changed", "removed", "added", "small"}
    fills: list = field(default_factory=list)  # fills and scalars whose value changed: {"op", "from", "to", "count"}
    unified: list[str] = field(default_factory=list)  # unified diff lines of the normalised IR

    @property
    def changed(self) -> bool:
        return bool(self.status or self.op_changes or self.moved or self.budget or self.constants or self.fills)


@dataclass
class IRDiff:
    a: str
    b: str
    versions: dict  # dist -> (before, after) where they differ
    setup: dict  # model/frontend/params -> (before, after) where they differ
    stages: list[StageDiff]  # pipeline order
    numeric: list[str]  # PCC drops from run.json / op_by_op.json
    weights: dict = field(default_factory=dict)  # argument weight name -> (digest before, digest after)

    _repr_html_ = view_method("IRDiff._repr_html_",
                              "The diff in a notebook: the summary, then each changed stage's unified diff.")
    save_html = view_method("IRDiff.save_html", "save_html(path): the notebook view as one self-contained HTML file.")

    @property
    def changed(self) -> bool:
        return any(s.changed for s in self.stages) or bool(self.numeric) or bool(self.setup) or bool(self.weights)

    def text(self, unified: bool = False) -> str:
        return render_text(self, unified)

    def __str__(self) -> str:
        return self.text()

    __repr__ = __str__


# --- reading a side ---------------------------------------------------------------------------------------


# --- comparing --------------------------------------------------------------------------------------------

def _compare_ops(a_ops: list, b_ops: list) -> tuple:
    """(op changes per source line, moves between lines, histogram deltas). Tensor constants (the constant
    budget covers them), fills and scalars (`_compare_fills`) and bookkeeping (TTNN get_device/deallocate,
    transfers) are left out."""
    a_ops = [o for o in a_ops if needs_location(o.name)]
    b_ops = [o for o in b_ops if needs_location(o.name)]
    by_line_a, by_line_b = _signatures_by_line(a_ops), _signatures_by_line(b_ops)
    name_of = {o.signature: o.name for o in a_ops + b_ops}
    removed_all, added_all = {}, {}
    for line in set(by_line_a) | set(by_line_b):
        ca, cb = by_line_a.get(line, Counter()), by_line_b.get(line, Counter())
        if ca != cb:
            removed_all[line], added_all[line] = ca - cb, cb - ca
    # The same op leaving one line and arriving at another is a location change.
    moved = []
    for line_from, removed in removed_all.items():
        for sig in list(removed):
            for line_to, added in added_all.items():
                if line_to == line_from or not added.get(sig) or not removed.get(sig):
                    continue
                n = min(removed[sig], added[sig])
                removed[sig] -= n
                added[sig] -= n
                moved.append({"op": name_of[sig], "from": line_from or "unknown", "to": line_to or "unknown",
                              "count": n})
    changes = []
    for line in sorted(set(removed_all) | set(added_all)):
        rem, add = +removed_all.get(line, Counter()), +added_all.get(line, Counter())
        if not rem and not add:
            continue
        changes.append({"line": line or "unknown",
                        "removed": dict(Counter(name_of[s] for s in rem.elements())),
                        "added": dict(Counter(name_of[s] for s in add.elements()))})
    for c in changes:  # the same op kind on both sides: say what differs (its arguments, attributes, types)
        line = "" if c["line"] == "unknown" else c["line"]
        rem, add = +removed_all.get(line, Counter()), +added_all.get(line, Counter())
        c["differs"] = _differs(rem, add, name_of)
    ha, hb = Counter(o.name for o in a_ops), Counter(o.name for o in b_ops)
    histogram = {n: (ha.get(n, 0), hb.get(n, 0)) for n in sorted(set(ha) | set(hb)) if ha.get(n) != hb.get(n)}
    return changes, moved, histogram


def _compare_fills(a_ops: list, b_ops: list) -> list:
    """Fills and scalars (ttnn.full, torch.constant.float, ...) state values of the program but no source line of
    their own (the compiler shares one among its users and gives it any of their lines), so they are compared as a
    whole, location aside: each of one kind whose value changed (`_differs`' rows). One only added or removed goes
    with the ops that use it, which the per-line comparison reports."""
    def fills(ops):
        return [o for o in ops if states_a_value(o.name) and not needs_location(o.name) and not is_constant_op(o.name)]

    a_fills, b_fills = fills(a_ops), fills(b_ops)
    removed = Counter(o.signature for o in a_fills) - Counter(o.signature for o in b_fills)
    added = Counter(o.signature for o in b_fills) - Counter(o.signature for o in a_fills)
    return _differs(removed, added, {o.signature: o.name for o in a_fills + b_fills})


def _differs(removed: Counter, added: Counter, name_of: dict) -> list:
    """For each op kind on both sides of a line: the part of its text that changed, `{"op", "from", "to",
    "count"}` ("aten.mul.Tensor", "0.5", "0.25", 1), pairing the kind's ops in order of appearance."""
    out: dict = {}
    for kind in dict.fromkeys(name_of[s] for s in removed):
        before = [s for s in removed.elements() if name_of[s] == kind]
        after = [s for s in added.elements() if name_of[s] == kind]
        for x, y in zip(before, after):
            key = (kind, *changed_part(x, y))
            out[key] = out.get(key, 0) + 1
    return [{"op": k[0], "from": k[1], "to": k[2], "count": n} for k, n in out.items()]


_TOKEN_EDGES = " ,()[]<>{}:="


def changed_part(a: str, b: str, limit: int = 100) -> tuple:
    """The differing middles of two op texts, widened to whole tokens and cut to `limit` characters each:
    `aten.mul.Tensor(%, 0.5)` / `aten.mul.Tensor(%, 0.25)` -> ("0.5", "0.25")."""
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    while start > 0 and a[start - 1] not in _TOKEN_EDGES:
        start -= 1
    while end > 0 and a[len(a) - end] not in _TOKEN_EDGES:
        end -= 1

    def cut(text: str) -> str:
        middle = text[start:len(text) - end].strip()
        return middle if len(middle) <= limit else middle[:limit] + " …"
    return cut(a), cut(b)


def _short_sig(signature: str, limit: int = 120) -> str:
    return signature if len(signature) <= limit else signature[:limit] + " …"


def _compare_constants(left: Side, right: Side, stage: str) -> list:
    """Constants whose value, shape or element type changed, by source line: `{"line", "changed": [{"name",
    "shape", "from", "to", "max_abs_delta"}], "removed": [text], "added": [text], "small": n}`. A constant gone
    and one come at the same line with the same name (a weight), or the only ones of their shape there, are one
    change. A constant that only moved to another line is not a change of value (the op comparison reports the
    move of its users). `small` counts those the stage's findings do not list (None when unknown)."""
    a_consts = [o for o in left.stages[stage]["ops"] if is_constant_op(o.name)]
    b_consts = [o for o in right.stages[stage]["ops"] if is_constant_op(o.name)]
    gone = Counter(o.signature for o in a_consts) - Counter(o.signature for o in b_consts)
    new = Counter(o.signature for o in b_consts) - Counter(o.signature for o in a_consts)
    by_line: dict = {}
    for ops, delta, key in ((a_consts, gone, "removed"), (b_consts, new, "added")):
        left_over = Counter(delta)
        for o in ops:
            if left_over[o.signature] > 0:
                left_over[o.signature] -= 1
                by_line.setdefault(o.line or "unknown", {"removed": [], "added": []})[key].append(o)
    out = []
    for line in sorted(by_line):
        removed, added = by_line[line]["removed"], by_line[line]["added"]
        pairs = _pairs(left, right, stage, removed, added)
        changed = [_constant_change(left, right, stage, x, y) for x, y in pairs]
        paired = {id(o) for pair in pairs for o in pair}
        # Small as the findings count them: each constant the line mentions once (a changed one by its new self).
        small_a = _small_count(left, stage, [o for o in removed if id(o) not in paired])
        small_b = _small_count(right, stage, added)
        out.append({"line": line, "changed": changed,
                    "removed": [_short_sig(o.signature) for o in removed if id(o) not in paired],
                    "added": [_short_sig(o.signature) for o in added if id(o) not in paired],
                    "small": None if small_a is None or small_b is None else small_a + small_b})
    return out


def _constant_name(side: Side, stage: str, op) -> Optional[str]:
    return ((side.listed_constants or {}).get(stage) or {}).get(op.index) or None


def _small_count(side: Side, stage: str, ops: list) -> Optional[int]:
    if side.listed_constants is None:
        return None
    listed = side.listed_constants.get(stage) or {}
    return sum(1 for o in ops if o.index not in listed)


def _pairs(left: Side, right: Side, stage: str, removed: list, added: list) -> list:
    """(before, after) constants of one line that are the same constant changed: the same name, else the only
    ones of their shape and element type on each side."""
    pairs, rest_a, rest_b = [], list(removed), list(added)
    by_name: dict = {}
    for o in rest_b:
        name = _constant_name(right, stage, o)
        if name:
            by_name.setdefault(name, o)
    for o in list(rest_a):
        match = by_name.pop(_constant_name(left, stage, o) or "", None)
        if match is not None:
            pairs.append((o, match))
            rest_a.remove(o)
            rest_b.remove(match)

    def kind(o):
        return (tuple(o.constant.shape), o.constant.dtype) if o.constant else None
    count_a, count_b = Counter(map(kind, rest_a)), Counter(map(kind, rest_b))
    for k, n in count_a.items():
        if k is not None and n == 1 and count_b.get(k) == 1:
            pairs.append((next(o for o in rest_a if kind(o) == k), next(o for o in rest_b if kind(o) == k)))
    return pairs


def constant_type_text(facts) -> str:
    return "x".join([*map(str, facts.shape), facts.dtype]) if facts else "?"


def _constant_change(left: Side, right: Side, stage: str, x, y) -> dict:
    va, vb = left.constant_values(stage, x), right.constant_values(stage, y)
    delta = None
    if va is not None and vb is not None and va.shape == vb.shape:
        delta = float(np.max(np.abs(va - vb))) if va.size else 0.0

    def one_value(v):
        return None if v is None or v.size == 0 or not np.all(v == v.flat[0]) else float(v.flat[0])
    shape_a, shape_b = constant_type_text(x.constant), constant_type_text(y.constant)
    return {"name": _constant_name(left, stage, x) or _constant_name(right, stage, y),
            "shape": shape_a if shape_a == shape_b else f"{shape_a} -> {shape_b}",
            "from": one_value(va), "to": one_value(vb), "max_abs_delta": delta}


def _signatures_by_line(ops: list) -> dict:
    out: dict = {}
    for o in ops:
        out.setdefault(o.line, Counter())[o.signature] += 1
    return out


_BUDGET_COLUMNS = ("constants", "small_constants", "embedded_bytes", "constant_bytes", "weights_inlined_bytes",
                   "non_weight_constants", "coverage")


def _budget(side: Side, stage: str) -> dict:
    for row in (side.findings.get("summary") or {}).get("stages", []):
        if row.get("stage") == stage:
            return row
    return {}


def diff_folders(a: str, b: str, stage: Optional[str] = None, context: int = 2) -> IRDiff:
    left, right = load_side(a), load_side(b)
    names = [s for s in dict.fromkeys(list(left.stages) + list(right.stages)) if stage in (None, s)]
    if stage is not None and not names:
        raise BadInput(f"no stage {stage!r} in either folder (stages: {', '.join(left.stages)})")
    stage_diffs = []
    for name in names:
        sa, sb = left.stages.get(name), right.stages.get(name)
        d = StageDiff(stage=name)
        ok_a, ok_b = bool(sa and sa["ok"]), bool(sb and sb["ok"])
        if ok_a != ok_b:
            d.status = ("ok" if ok_a else f"failed: {sa['error'] if sa is not None else 'absent'}",
                        "ok" if ok_b else f"failed: {sb['error'] if sb is not None else 'absent'}")
        if sa and sb and ok_a and ok_b:
            d.op_changes, d.moved, d.histogram = _compare_ops(sa["ops"], sb["ops"])
            d.constants = _compare_constants(left, right, name)
            d.fills = _compare_fills(sa["ops"], sb["ops"])
            if d.op_changes or d.moved or d.constants or d.fills:
                d.unified = list(difflib.unified_diff(sa["text"].splitlines(), sb["text"].splitlines(),
                                                      f"a/{name}", f"b/{name}", n=context, lineterm=""))
            ba, bb = _budget(left, name), _budget(right, name)
            for col in _BUDGET_COLUMNS:
                va, vb = ba.get(col), bb.get(col)
                if col == "coverage" and va is not None and vb is not None and abs(va - vb) < 1e-9:
                    continue
                if va != vb:
                    d.budget[col] = (va, vb)
        stage_diffs.append(d)
    va, vb = left.manifest.get("versions", {}), right.manifest.get("versions", {})
    versions = {k: (va.get(k), vb.get(k)) for k in sorted(set(va) | set(vb)) if va.get(k) != vb.get(k)}
    setup = {k: (left.manifest.get(k), right.manifest.get(k)) for k in ("model", "frontend", "params")
             if left.manifest.get(k) != right.manifest.get(k)}
    wa, wb = weight_digests(a), weight_digests(b)
    weights = {k: (wa.get(k), wb.get(k)) for k in sorted(set(wa) & set(wb)) if wa[k] != wb[k]} if wa and wb else {}
    return IRDiff(a=a, b=b, versions=versions, setup=setup, stages=stage_diffs, numeric=_numeric(left, right),
                  weights=weights)


def _numeric(left: Side, right: Side, tolerance: float = 1e-4) -> list:
    out = []
    ra, rb = left.extra.get("run.json"), right.extra.get("run.json")
    if ra and rb and ra.get("pcc") is not None and rb.get("pcc") is not None and rb["pcc"] < ra["pcc"] - tolerance:
        out.append(f"whole graph ({rb.get('stage')} on {rb.get('device')}): pcc {ra['pcc']:.6f} -> {rb['pcc']:.6f}")
    if ra and rb and ra.get("ok") != rb.get("ok"):
        out.append(f"whole graph comparison: {'ok' if ra.get('ok') else 'failed'} -> {'ok' if rb.get('ok') else 'failed'}")
    oa, ob = left.extra.get("op_by_op.json"), right.extra.get("op_by_op.json")
    if oa and ob:
        before = {(r["op"], tuple(r["inputs"])): r for r in oa.get("ops", [])}
        for r in ob.get("ops", []):
            old = before.get((r["op"], tuple(r["inputs"])))
            where = ", ".join(r.get("locations", [])[:2])
            if old and old.get("pcc") is not None and (r.get("pcc") is None or r["pcc"] < old["pcc"] - tolerance):
                out.append(f"op {r['op']} {', '.join(r['inputs'])} ({where}): pcc {old['pcc']:.6f} -> "
                           f"{'not run' if r.get('pcc') is None else format(r['pcc'], '.6f')}")
            elif old and _stage_rank(r.get("furthest_stage")) < _stage_rank(old.get("furthest_stage")):
                # compile-only rows have no PCC: an op that stops earlier in the compiler is the regression
                out.append(f"op {r['op']} {', '.join(r['inputs'])} ({where}): got to {old['furthest_stage']}, now "
                           f"stops at {r['furthest_stage']}: {(r.get('error') or '')[:200]}")
    return out


def _stage_rank(stage) -> int:
    return FURTHEST_STAGES.index(stage) if stage in FURTHEST_STAGES else -1


def diff(a, b, stage: Optional[str] = None) -> IRDiff:
    """Compare two Bringups or export folders (either side may be either)."""
    with temp_folder("ttbench-diff-") as tmp:
        paths = []
        for i, side in enumerate((a, b)):
            if isinstance(side, (str, os.PathLike)):
                paths.append(os.fspath(side))
            elif hasattr(side, "export"):
                paths.append(side.export(os.path.join(tmp, f"side{i}")))
            else:
                raise BadInput(f"diff takes Bringups or export folders, got {type(side).__name__}")
        result = diff_folders(paths[0], paths[1], stage=stage)
        for i, side in enumerate((a, b)):
            if not isinstance(side, (str, os.PathLike)):
                setattr(result, "ab"[i], f"<Bringup {side.model_name} {side.frontend} {side.params}>")
        return result


# --- rendering --------------------------------------------------------------------------------------------


