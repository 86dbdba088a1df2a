"""An IRDiff (compare.py) as text: the summary lines the CLI prints, the notebook view lists and CI logs keep."""
from __future__ import annotations

import re


def _fmt_counts(counts: dict) -> str:
    return " + ".join(f"{n}× {k}" if n > 1 else k for k, n in sorted(counts.items())) or "nothing"


def _fmt_budget(col: str, pair: tuple) -> str:
    a, b = pair
    if col == "coverage" and a is not None and b is not None:
        return f"{col} {a:.1%} -> {b:.1%}"
    if col in ("embedded_bytes", "constant_bytes", "weights_inlined_bytes") and isinstance(a, int) and isinstance(b, int):
        return f"{col} {a:,} -> {b:,} B ({b - a:+,})"
    return f"{col} {a} -> {b}"


CONSTANTS_SHOWN = 6  # per side and line; the unified diff has every one
_CONSTANT_RE = re.compile(r"(dense|weights)<(.*?)>\s*:\s*tensor<([^>,]*)")


def _fmt_constant(text: str) -> str:
    """`% = stablehlo.constant dense<2.000000e+00> : tensor<2x8xf32>` -> `2x8xf32 = 2 (every element)`; a weight
    the printer elided (`weights<sha1>`) -> `32x32xf32 = weight 4f747dd370e0`."""
    m = _CONSTANT_RE.search(text)
    if not m:
        return text.replace("% = ", "").strip()
    kind, value, shape = m.group(1), m.group(2).strip(), m.group(3).strip()
    if kind == "weights":
        return f"{shape} = weight {value}"
    if value.startswith('"0x'):
        return f"{shape} (values in hex, {(len(value) - 3) // 2} bytes)"
    if value.startswith("["):
        return f"{shape} = {value[:60]}{' ...' if len(value) > 60 else ''}"
    try:
        value = f"{float(value):g}"
    except ValueError:
        pass
    return f"{shape} = {value}" + (" (every element)" if "x" in shape or shape[:1].isdigit() else "")


def _fmt_change(change: dict) -> str:
    """`fc.weight 16x16xf32: max |Δ| 0.171`, `1xf64: 0.5 -> 0.25 (max |Δ| 0.25)`."""
    head = f"{change['name']} {change['shape']}" if change["name"] else change["shape"]
    delta = change["max_abs_delta"]
    if delta is None:
        delta_text = ("max |Δ| unknown: the shapes differ" if "->" in change["shape"]
                      else "max |Δ| unknown: the folder does not hold the values")
    else:
        delta_text = f"max |Δ| {delta:.4g}"
    if change["from"] is not None and change["to"] is not None:
        return f"{head}: {change['from']:g} -> {change['to']:g} ({delta_text})"
    return f"{head}: {delta_text}"


def summary_lines(d) -> list:
    lines = [f"ttbench diff  a: {d.a}  b: {d.b}"]
    for k, (x, y) in d.setup.items():
        lines.append(f"{k}: {x} -> {y}")
    if "params" in d.setup:
        for s in d.stages:
            if "weights_inlined_bytes" in s.budget:
                x, y = s.budget["weights_inlined_bytes"]
                lines.append(f"  {s.stage}: weights moved {'into' if (y or 0) > (x or 0) else 'out of'} the graph: "
                             f"{abs((y or 0) - (x or 0)):,} B")
    for k, (x, y) in d.versions.items():
        lines.append(f"version {k}: {x} -> {y}")
    for s in d.stages:
        if not s.changed:
            lines.append(f"{s.stage}: unchanged")
            continue
        lines.append(f"{s.stage}:")
        if s.status:
            lines.append(f"  status: {s.status[0]} -> {s.status[1]}")
        for c in s.op_changes:
            if c["removed"] != c["added"]:
                lines.append(f"  at {c['line']}: {_fmt_counts(c['removed'])} became {_fmt_counts(c['added'])}")
            for x in c.get("differs", [])[:CONSTANTS_SHOWN]:
                times = f"{x['count']}× " if x["count"] > 1 else ""
                lines.append(f"  at {c['line']}: {times}{x['op']} changed: {x['from'] or '(nothing)'} -> "
                             f"{x['to'] or '(nothing)'}")
            if len(c.get("differs", [])) > CONSTANTS_SHOWN:
                lines.append(f"  ... {len(c['differs']) - CONSTANTS_SHOWN} more changed ops at {c['line']} "
                             "(--unified shows them)")
        for x in s.fills[:CONSTANTS_SHOWN]:
            times = f"{x['count']}× " if x["count"] > 1 else ""
            lines.append(f"  fill: {times}{x['op']} changed: {x['from'] or '(nothing)'} -> {x['to'] or '(nothing)'}")
        for m in s.moved:
            lines.append(f"  location: {m['count']}× {m['op']} moved {m['from']} -> {m['to']}")
        for c in s.constants:
            small = "" if not c["small"] else (f" ({c['small']} of them small: counted in small_constants, "
                                               "not in constants)")
            lines.append(f"  constants at {c['line']}: {len(c['changed'])} changed, {len(c['removed'])} removed, "
                         f"{len(c['added'])} added{small}")
            lines += [f"    ~ {_fmt_change(x)}" for x in c["changed"][:CONSTANTS_SHOWN]]
            if len(c["changed"]) > CONSTANTS_SHOWN:
                lines.append(f"    ~ ... {len(c['changed']) - CONSTANTS_SHOWN} more (--unified shows them)")
            for sign, constants in (("-", c["removed"]), ("+", c["added"])):
                lines += [f"    {sign} {_fmt_constant(text)}" for text in constants[:CONSTANTS_SHOWN]]
                if len(constants) > CONSTANTS_SHOWN:
                    lines.append(f"    {sign} ... {len(constants) - CONSTANTS_SHOWN} more (--unified shows them)")
        if s.histogram:
            lines.append("  op counts: " + ", ".join(f"{n} {x}->{y}" for n, (x, y) in list(s.histogram.items())[:8])
                         + (" ..." if len(s.histogram) > 8 else ""))
        for col, pair in s.budget.items():
            lines.append("  " + _fmt_budget(col, pair))
    for name, (x, y) in d.weights.items():
        lines.append(f"weight {name}: bytes changed (sha1 {x} -> {y})")
    for n in d.numeric:
        lines.append(f"numeric: {n}")
    lines.append("meaningful changes: " + ("yes" if d.changed else "none"))
    return lines


def render_text(d, unified: bool = False) -> str:
    lines = summary_lines(d)
    if unified:
        for s in d.stages:
            lines.extend(s.unified)
    return "\n".join(lines)
