"""Error attribution: which ops a TT program's final error pays for, when it runs in reduced precision.

The program runs chained in the reduced precision (on the CPU: ttbench's interpreter with every float result
rounded to bf16, a stand-in for the chip's bf16 arithmetic) and exactly (the IR's own element types). Parts of the
reduced run are then "healed" — computed exactly on the rounded values they are given — and each part's share of
the final error is what healing it takes away:

- prefixes, bisected: f(k) is the final error when the first k ops are healed (f(0) the whole error, f(n) none);
  the segment whose drop f(a) - f(b) is largest is split next, so isolating one dominant op costs log2(ops) runs,
  and a budget (`max_runs`) bounds the rest. Errors of independent roundings add as squared errors, which is the
  measure used: the final error is the squared distance of the outputs from the exact ones.
- the top single ops alone (what-if: this op in f32 -> the final PCC it gives back),
- and each top op's group: the ops of the same kind at the same place in the model's repeated modules
  (`encoder.layer.*`), or on the same source line; and the kinds the largest parts compute, everywhere.

Healing every op must give back the exact outputs bit for bit; a run that does not is ttbench's bug and refuses.
What it vouches for: how bf16 rounding of each op's result, under the compiler's program, accumulates. What it
cannot: the chip's own kernels (math fidelity, accumulation width). For those, device="ttsim" runs ttnn's kernels
on Tenstorrent's simulator: there a healed op takes the exact run's values instead of running, which is "computed
exactly" only for a prefix, so only prefixes are healed (no op alone, no groups), and the what-if is a top op rerun
with the most precise compute config (HiFi4, fp32 accumulation).
"""
from __future__ import annotations

import heapq
import json
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

import numpy as np
import torch

from ..analysis.op_kinds import is_bookkeeping, moves_only
from ..compare.values import pcc
from ..core import PROGRAM_STAGES, REPORT_BUGS, BadInput, BringupRecord, InternalError, StageName, view_method
from ..io.arrays import to_numpy
from ..progress import bar as progress_bar
from ..tt.interp import NOT_INTERPRETED, PRODUCER, interpret, why_not
from ..tt.program import Program, parse_program
from ..tt.sim.executor import DEFAULT_TIMEOUT_S as SIM_TIMEOUT_S, PRODUCER as SIMULATOR, NotSimulated, simulate
from ..tt.sim.executor import COMPUTE_CONFIG_KINDS, available as sim_available

DRIFT_DEVICES = ("cpu", "ttsim")
DRIFT_PRECISIONS = ("bf16",)
MIN_RUNS = 10  # exact, reduced, healed everywhere, a bisection step, and the runs kept for the top parts
CULPRIT_SHARE = 0.5  # a part named as *the* cause: at least this share of the final error
SPREAD_SHARE = 0.2  # no single op above this: the error is spread, said so
CONCENTRATION = 2.0  # a culprit part holds at least this many times its fraction of the program's computing ops
TOP_OPS = 2  # single ops measured alone (the what-if), each with its group
TOP_KINDS = 2  # op kinds of the largest parts, healed everywhere
PRECISE_COMPUTE = {"math_fidelity": "hifi4", "fp32_dest_acc_en": True}  # the simulator's what-if for a top op
_INDEX = re.compile(r"(?<=\.)\d+(?=\.|$)")


@dataclass
class Contributor:
    """One healed part of the program and what healing it gives back."""

    kind: str  # "op", "ops" (a contiguous range of the program), "group" (healed together: the same kind in
    # repeated modules, on one line, or everywhere), "sum" (single ops of one kind found by the bisection, added)
    what: str  # "ttnn.sum #37", "ops #12–#40 (29 ops)", "12 ttnn.layer_norm of encoder.layer.*"
    ops: list  # op indices healed
    share: float  # of the final (squared) error taken away by healing these ops
    location: str = ""  # the first op's source line (short), "" unknown
    module: str = ""
    recovered_pcc: Optional[float] = None  # the final PCC with only these healed; None when not measured alone
    what_if: Optional[dict] = None  # simulator: {"change", "final_pcc", "share_recovered"} with a precise config

    def to_dict(self) -> dict:
        return {"kind": self.kind, "what": self.what, "ops": self.ops, "share": self.share,
                "location": self.location, "module": self.module, "recovered_pcc": self.recovered_pcc,
                "what_if": self.what_if}


@dataclass
class DriftReport:
    model: str
    stage: str
    device: str
    precision: str
    produced_by: str
    final_pcc: float  # the reduced run's outputs against the exact run's
    final_error: float  # squared distance of the outputs, summed over them
    contributors: list  # Contributor, largest share first
    runs: int  # chained runs made, the exact and reduced ones included
    seconds: float
    units: int  # ops that can be healed (main's ops with a tensor result)
    profile: list = field(default_factory=list)  # (op index, relative error of its value) along the program
    prefix_errors: dict = field(default_factory=dict)  # k -> final error with the first k units healed
    unit_ops: list = field(default_factory=list)  # op index of each unit, in program order
    verdict: str = ""

    def to_dict(self) -> dict:
        return {"model": self.model, "stage": self.stage, "device": self.device, "precision": self.precision,
                "produced_by": self.produced_by, "final_pcc": self.final_pcc, "final_error": self.final_error,
                "runs": self.runs, "seconds": self.seconds, "units": self.units, "verdict": self.verdict,
                "contributors": [c.to_dict() for c in self.contributors], "hypotheses": self.hypotheses(),
                "profile": [[i, e] for i, e in self.profile]}

    _repr_html_ = view_method("DriftReport._repr_html_",
                              "The sentence, then the ranked parts with their share, line, module and healed PCC.")
    plot = view_method("DriftReport.plot", "plot(ax=None): each op's relative error along the program (log), "
                                           "the top contributors marked.")

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def hypotheses(self) -> list:
        """The concrete fixes to try, each with its measured gain: a top op in f32 (CPU) or with a precise compute
        config (simulator)."""
        out = []
        for c in self.contributors:
            if c.what_if:
                out.append(f"run {c.what} ({c.location}) with {c.what_if['change']}: final PCC "
                           f"{c.what_if['final_pcc']:.6f} (from {self.final_pcc:.6f}), "
                           f"{c.what_if['share_recovered'] * 100:.0f} % of the error recovered")
            elif c.kind == "op" and c.recovered_pcc is not None and c.share > 0:
                out.append(f"run {c.what} ({c.location}) in f32: final PCC {c.recovered_pcc:.6f} (from "
                           f"{self.final_pcc:.6f}), {c.share * 100:.0f} % of the error recovered")
        return out

    def top(self, n: int = 5) -> list:
        return self.contributors[:n]

    def __str__(self) -> str:
        head = (f"{self.model} {self.stage} in {self.precision} on {self.device}: final PCC {self.final_pcc:.6f} "
                f"against the exact run ({self.runs} runs, {self.seconds:.1f} s)")
        lines = [head, self.verdict]
        for c in self.contributors[:10]:
            alone = f"  alone -> PCC {c.recovered_pcc:.6f}" if c.recovered_pcc is not None else ""
            lines.append(f"  {c.share * 100:6.1f} %  {c.what}  {c.location}  {c.module}{alone}")
        lines += [f"  hypothesis: {h}" for h in self.hypotheses()]
        return "\n".join(lines)


class _Runs:
    """Chained runs of one program, counted, each reduced to its final squared error and PCC against the exact run
    (the interpreter at the IR's precision, every op's results recorded)."""

    producer = ""
    any_set = False  # whether any set of ops can be healed (else prefixes only)
    reduced_values: dict = {}  # op index -> its first result in the reduced run (torch or numpy), once it ran

    def __init__(self, program: Program, arguments: list, bar):
        self.program, self.arguments, self.bar = program, arguments, bar
        self.count = 0
        exact = self._interpret(precision="ir", record=True)
        self.exact_outputs = _float_outputs(exact.outputs)
        if not self.exact_outputs:
            raise BadInput("drift compares float outputs, and this program returns none")
        self.exact = exact

    def _interpret(self, precision: str, record: bool = False, exact=frozenset()):
        try:
            run = interpret(self.program, list(self.arguments), precision=precision, record=record, exact=exact)
        except NOT_INTERPRETED as exc:
            raise why_not(exc) from exc
        self.count += 1
        self.bar.update(1)
        return run

    def outputs(self, healed: frozenset) -> list:
        raise NotImplementedError

    def error(self, healed=frozenset(), **what_if) -> tuple:
        """(final squared error, final PCC) with the ops in `healed` healed."""
        outputs = self.outputs(frozenset(healed), **what_if)
        if len(outputs) != len(self.exact_outputs):
            raise InternalError(f"drift: a run gave {len(outputs)} float outputs, the exact run "
                                f"{len(self.exact_outputs)} ({REPORT_BUGS})")
        error = sum(float(((o - e) ** 2).sum()) for o, e in zip(outputs, self.exact_outputs))
        return error, pcc(np.concatenate([o.ravel() for o in outputs]),
                          np.concatenate([e.ravel() for e in self.exact_outputs]))


class _InterpretedRuns(_Runs):
    """The CPU stand-in: every float result rounded to bf16; a healed op computes at the IR's precision on the
    rounded values it is given (what if it ran in f32), so any set of ops can be healed."""

    any_set = True

    def __init__(self, program: Program, arguments: list, precision: str, bar):
        super().__init__(program, arguments, bar)
        self.precision = precision
        self.producer = (f"cpu: {PRODUCER}, every float result rounded to {precision} except the healed ops'")

    def outputs(self, healed: frozenset) -> list:
        run = self._interpret(self.precision, record=not healed, exact=healed)
        if not healed:
            self.reduced_values = {i: values[0] for i, values in run.values.items() if values}
        return _float_outputs(run.outputs)


class _SimulatedRuns(_Runs):
    """Tenstorrent's simulator: ttnn's kernels, chained. A healed op is not run: its results are the exact run's
    values. That equals computing it exactly only when every op before it is healed too, so only prefixes are
    healed here (the bisection), never single ops out of order."""

    any_set = False

    def __init__(self, program: Program, arguments: list, timeout: float, bar):
        super().__init__(program, arguments, bar)
        self.timeout = timeout
        self.producer = f"ttsim: {SIMULATOR}, chained; healed ops take the interpreter's exact values"
        main = program.main
        self.read_after = {}  # SSA name -> the last main op (position) that reads it, or len(ops) when returned
        for position, p in enumerate(main.ops):
            for name in p.operands:
                self.read_after[name] = position
        for name in main.returns:
            self.read_after[name] = len(main.ops)
        self.position = {p.op.index: k for k, p in enumerate(main.ops)}

    def outputs(self, healed: frozenset, compute_configs: Optional[dict] = None) -> list:
        main = self.program.main
        last = max((self.position[i] for i in healed), default=-1)
        seed = {}
        for p in main.ops:
            if p.op.index not in healed:
                continue
            values = self.exact.results.get(p.op.index) or []
            for name, value in zip(p.results, values):
                if isinstance(value, torch.Tensor) and self.read_after.get(name, -1) > last:
                    seed[(main.name, name)] = to_numpy(value)
        run = simulate(self.program, [to_numpy(a) for a in self.arguments], seed=seed if healed else None,
                       healed=healed, record=not healed and not compute_configs, timeout=self.timeout,
                       compute_configs=compute_configs)
        if not healed and not compute_configs:
            self.reduced_values = dict(run.values)
        self.count += 1
        self.bar.update(1)
        if run.outputs is None:
            where = f" at op #{run.aborted_at}" if run.aborted_at is not None else ""
            raise NotSimulated(f"the simulator stopped{where}: {run.abort_line}")
        return [np.asarray(o, dtype=np.float64) for o in run.outputs if np.asarray(o).dtype.kind == "f"]


def _float_outputs(outputs: list) -> list:
    return [to_numpy(o.detach().double()) for o in outputs if isinstance(o, torch.Tensor) and o.dtype.is_floating_point]


def drift(b: BringupRecord, stage: str = "ttnn", device: str = "cpu", precision: str = "bf16", max_runs: int = 20,
          progress: bool = True, timeout: Optional[float] = None) -> DriftReport:
    """Attribute the final error of `stage`'s program run in `precision` to its ops (see the module doc)."""
    if stage not in PROGRAM_STAGES:
        raise BadInput(f"drift runs a TT program: stage must be one of {', '.join(PROGRAM_STAGES)}, not {stage!r}")
    if device not in DRIFT_DEVICES:
        raise BadInput(f"drift runs on {' or '.join(DRIFT_DEVICES)} (cpu: the bf16 stand-in in ttbench's "
                       f"interpreter; ttsim: ttnn's kernels on Tenstorrent's simulator), not {device!r}")
    if device == "ttsim" and stage != StageName.TTNN:
        raise BadInput(f"drift on ttsim replays the TTNN program: stage='ttnn', not {stage!r}")
    if device == "ttsim" and precision != "bf16":
        raise BadInput("on ttsim the precision is the kernels' own: leave precision out")
    if precision not in DRIFT_PRECISIONS:
        raise BadInput(f"drift's reduced precision is one of {', '.join(DRIFT_PRECISIONS)}, not {precision!r}")
    if not isinstance(max_runs, int) or max_runs < MIN_RUNS:
        raise BadInput(f"max_runs must be an integer of at least {MIN_RUNS}, not {max_runs!r}")
    if stage not in b.stages:
        raise BadInput(f"this bringup has no {stage} stage (bring it up with tt=True)")
    s = b.stages[stage]
    if not s.ok:
        raise BadInput(f"drift runs the {stage} program, and {stage} did not compile: {s.error}")
    if device == "ttsim":
        missing = sim_available()
        if missing:
            raise BadInput(f"drift on ttsim needs the simulator: {missing}")
    t0 = time.perf_counter()
    try:
        program = parse_program(stage, s.full_text())
    except NOT_INTERPRETED as exc:
        raise why_not(exc) from exc
    units = [p for p in program.main.ops if p.results and any(t is not None for t in p.result_types)]
    if not units:
        raise BadInput(f"the {stage} program has no op with a tensor result to attribute error to")
    with progress_bar(max_runs, f"{b.model_name} drift", progress) as bar:
        arguments = list(b.argument_values)
        runs: _Runs = _InterpretedRuns(program, arguments, precision, bar) if device == "cpu" else \
            _SimulatedRuns(program, arguments, timeout or SIM_TIMEOUT_S, bar)
        total, final_pcc = runs.error()
        everything = frozenset(p.op.index for p in units)
        floor, _ = runs.error(everything)
        if device == "cpu" and floor != 0.0:
            raise InternalError(f"drift: healing every op of the {stage} program left a final error of "
                                f"{floor:.3g} (it must give back the exact outputs; {REPORT_BUGS})")
        if floor > 1e-3 * total:
            raise InternalError(f"drift: with every op's exact value fed in, the simulator's outputs still differ "
                                f"from the exact run's by {floor:.3g} of {total:.3g} ({REPORT_BUGS})")
        report = DriftReport(b.model_name, stage, device, precision if device == "cpu" else "the kernels' own",
                             runs.producer, final_pcc, total, [], runs.count, 0.0, len(units),
                             unit_ops=[p.op.index for p in units])
        report.profile = _profile(units, runs.reduced_values, runs.exact.values)
        if total <= floor:
            report.verdict = "The run gives the exact outputs: there is no error to attribute."
        else:
            _attribute(report, runs, units, total, floor, max_runs)
    report.runs, report.seconds = runs.count, time.perf_counter() - t0
    return report


def _profile(units: list, reduced: dict, exact: dict) -> list:
    """(op index, relative error of its first tensor result against the exact run's) for each unit recorded."""
    out = []
    for p in units:
        i = p.op.index
        if i not in reduced or not exact.get(i) or not isinstance(exact[i][0], torch.Tensor):
            continue
        e = exact[i][0].detach()
        if not e.dtype.is_floating_point:
            continue
        r = reduced[i]
        r = r.detach().double().numpy() if isinstance(r, torch.Tensor) else np.asarray(r, dtype=np.float64)
        e = e.double().numpy()
        if r.size != e.size:
            continue
        norm = float(np.linalg.norm(e))
        gap = float(np.linalg.norm(r.ravel() - e.ravel()))
        out.append((i, gap / norm if norm else gap))
    return out


def _attribute(report: DriftReport, runs: _Runs, units: list, total: float, floor: float, max_runs: int) -> None:
    n = len(units)
    index = [p.op.index for p in units]
    f = {0: total, n: floor}
    span = total - floor  # what healing can take away
    # each top op alone and its group; each top kind everywhere (only where any set of ops can be healed); on the
    # simulator, each top op with a precise compute config
    reserved = 2 * TOP_OPS + TOP_KINDS if runs.any_set else TOP_OPS
    split_budget = max_runs - runs.count - reserved
    heap = [(-total, 0, n)]
    leaves = []
    while heap:
        drop, a, b = heapq.heappop(heap)
        if b - a == 1 or split_budget <= 0 or -drop <= 0.01 * span:
            leaves.append((-drop, a, b))
            continue
        m = (a + b) // 2
        f[m] = runs.error(frozenset(index[:m]))[0]
        split_budget -= 1
        for lo, hi in ((a, m), (m, b)):
            heapq.heappush(heap, (-(f[lo] - f[hi]), lo, hi))
    report.prefix_errors = dict(sorted(f.items()))
    leaves.sort(key=lambda t: -t[0])
    contributors = []
    for drop, a, b in leaves:
        if drop <= 0:
            continue
        first = units[a].op
        what = f"{first.name} #{first.index}" if b - a == 1 else _range_label(units[a:b])
        contributors.append(Contributor("op" if b - a == 1 else "ops", what, index[a:b], drop / span,
                                        _where(first), first.module or ""))
    # single ops of one kind found one by one: their prefix drops add up ("the 6 ttnn.matmul ... 100 %")
    by_kind: dict = {}
    for c in contributors:
        if c.kind == "op":
            by_kind.setdefault(units[index.index(c.ops[0])].op.name, []).append(c)
    for name, found in by_kind.items():
        if len(found) > 1:
            contributors.append(Contributor("sum", f"the {len(found)} {name} found one by one (their shares added)",
                                            sorted(i for c in found for i in c.ops), sum(c.share for c in found)))
    if not runs.any_set:  # the simulator: what if the top ops ran with the most precise compute config
        for c in [c for c in contributors if c.kind == "op"][:TOP_OPS]:
            name = units[index.index(c.ops[0])].op.name
            if name not in COMPUTE_CONFIG_KINDS or runs.count >= max_runs:
                continue
            error, p = runs.error(compute_configs={c.ops[0]: PRECISE_COMPUTE})
            c.what_if = {"change": ", ".join(f"{k} = {v}" for k, v in PRECISE_COMPUTE.items()), "final_pcc": p,
                         "share_recovered": (total - error) / span}
        contributors.sort(key=lambda c: -c.share)
        report.contributors = contributors
        report.verdict = _verdict(report, contributors, len(_computing(units)))
        return

    def healed(description: str, ops: list, like: Contributor) -> None:
        if any(sorted(c.ops) == sorted(ops) and c.kind != "sum" for c in contributors):
            return  # the same ops healed already (a module group that is every op of its kind)
        if runs.count < max_runs:
            error, p = runs.error(frozenset(ops))
            contributors.append(Contributor("group", description, ops, (total - error) / span, like.location,
                                            like.module, p))

    # what-if: each of the top single ops computed exactly on its own, then its group
    for c in [c for c in contributors if c.kind == "op"][:TOP_OPS]:
        if runs.count >= max_runs:
            break
        error, p = runs.error(frozenset(c.ops))
        c.recovered_pcc = p
        c.share = (total - error) / span  # measured alone: the what-if, not the bisection's estimate
        group = _group_of(units, c.ops[0])
        if group:
            healed(group[0], group[1], c)
    # the kinds of op the largest parts compute, healed everywhere in the program ("the 52 ttnn.conv2d")
    for kind in _top_kinds(units, contributors[:3]):
        members = [p.op.index for p in units if p.op.name == kind]
        if len(members) > 1:
            healed(f"all {len(members)} {kind}", members, Contributor("group", "", [], 0.0))
    contributors.sort(key=lambda c: -c.share)
    report.contributors = contributors
    report.verdict = _verdict(report, contributors, len(_computing(units)))


def _computing(ops) -> list:
    """The names of the ops that compute (round) something: not bookkeeping, not a move of values."""
    return [p.op.name for p in ops if not is_bookkeeping(p.op.name) and not moves_only(p.op.name)]


def _range_label(ops: list) -> str:
    kinds = Counter(_computing(ops) or [p.op.name for p in ops]).most_common(3)
    inside = ", ".join(f"{count} {name}" for name, count in kinds)
    return f"ops #{ops[0].op.index}–#{ops[-1].op.index} ({len(ops)} ops: {inside})"


def _top_kinds(units: list, parts: list) -> list:
    """The op kinds that compute the most in the largest parts, up to TOP_KINDS."""
    at = {p.op.index: p for p in units}
    counts: Counter = Counter()
    for c in parts:
        counts.update(_computing([at[i] for i in c.ops]))
    return [name for name, _ in counts.most_common(TOP_KINDS)]


def _where(op) -> str:
    return op.location.short if op.location is not None else ""


def _module_pattern(module: Optional[str]) -> str:
    return _INDEX.sub("*", module or "")


def _group_of(units: list, op_index: int) -> Optional[tuple]:
    """(description, op indices) of the ops like `op_index`'s: same kind, and the same module with its block
    numbers as * (`encoder.layer.*.attention`), or else the same source line; None when it is alone."""
    op = next(p.op for p in units if p.op.index == op_index)
    pattern = _module_pattern(op.module)
    if "*" in pattern:
        members = [p.op.index for p in units if p.op.name == op.name and _module_pattern(p.op.module) == pattern]
        where = pattern
    elif op.location is not None:
        members = [p.op.index for p in units if p.op.name == op.name and p.op.location is not None
                   and (p.op.location.file, p.op.location.line) == (op.location.file, op.location.line)]
        where = op.location.short
    else:
        return None
    if len(members) < 2:
        return None
    return f"the {len(members)} {op.name} of {where}", members


def _verdict(report: DriftReport, contributors: list, computing: int) -> str:
    """One sentence: a culprit only where a part holds most of the error *and* is a small part of the program
    (all 60 multiplies of a program of multiplies holding 100 % of its error is no culprit)."""
    if not contributors:
        return ("No part of the program takes the error away on its own: the ops' errors cancel or compound, and "
                "no culprit is named.")

    def place(c: Contributor) -> str:
        return f" ({c.location})" if c.location and c.kind != "group" else ""

    concentrated = [c for c in contributors if c.share >= CULPRIT_SHARE and
                    len(c.ops) <= c.share * computing / CONCENTRATION]
    if concentrated:
        top = concentrated[0]
        return f"{top.share * 100:.0f} % of the final error comes from {top.what}{place(top)}."
    singles = [c for c in contributors if c.kind == "op"]
    largest = max(singles, key=lambda c: c.share) if singles else None
    if largest is None or largest.share < SPREAD_SHARE:
        top = contributors[0]
        return (f"The error is spread along the program: no single op accounts for {SPREAD_SHARE * 100:.0f} % of "
                f"it" + (f" (the largest: {largest.share * 100:.0f} % from {largest.what}{place(largest)})"
                         if largest else "") + f"; the largest part measured is {top.what}, "
                f"{top.share * 100:.0f} %.")
    return f"The largest single op, {largest.what}{place(largest)}, holds {largest.share * 100:.0f} % of the " \
           f"final error; no part holds most of it."
