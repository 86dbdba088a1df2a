"""Per-op numerics across two stages: which compiler rewrite changed the numbers.

Both stages run once with every op's value recorded (stage_values.py). Each op of the later stage that computes
something is matched with the ops of the earlier stage from the same source line and module path whose value has
its shape — or the same elements in another layout: reshaped, or NCHW against TTNN's flattened NHWC
`[1, 1, N*H*W, C]` — and compared with the closest of them (PCC, max abs error). A fused op that holds the value of
another op of its line (a conv with its batch norm folded in) is matched with that op; a TTNN op with fused output
activations is compared by its value before them (the activation may come from another line: a residual add and
the relu after it). Ops with no such counterpart are listed as unmatched, never guessed. The first op in execution
order whose PCC falls below `min_pcc` is the first divergence, with its source line.
"""
from __future__ import annotations

import time

import numpy as np

from ..analysis.fusion import fused_activation_kinds
from ..analysis.op_kinds import COMPOSED_ACTIVATIONS, KIND_CLASSES, MOVEMENT_SUFFIXES, kinds_of
from ..compare.alignment import PERFECT, agrees, best_alignment
from ..compare.outcomes import verdicts
from ..core import PROGRAM_STAGES, VALUE_STAGES, BadInput, BringupRecord, Op, StageName
from ..records.comparison import OpMatch, StageComparison
from ..tt.interp import ACTIVATIONS, refusal
from ..tt.sim.executor import NotSimulated, SimulatedOps
from .simulated_ops import producers, simulate_ops
from .stage_values import NotRun, stage_values
from .whole import interpreter_device

# Ops whose value is not a computation to compare: creation from attributes, placement and layout moves (their
# value is their operand's), bookkeeping, and const-eval call sites (the const-eval ops themselves are compared).
_NOT_COMPARED_SUFFIXES = (".constant", ".full", ".ones", ".zeros", ".empty", ".arange", ".get_device",
                          ".deallocate", ".to_layout", ".to_device", ".from_device", ".to_memory_config",
                          ".load_cached", ".literal")


# Every kind name an activation goes by in some stage, with the ops that may end one
_ACTIVATION_KINDS = set().union(*(kinds_of(k) | COMPOSED_ACTIVATIONS.get(k, set()) for k in ACTIVATIONS))


def _kinds(op: Op) -> set:
    """The kind names `op` computes: its own (with its class) and, for a TTNN op with fused activations, theirs."""
    parts = op.name.split(".")
    names = {(parts[1] if len(parts) > 1 else parts[0]).lower()}
    if op.name.startswith("ttnn."):
        names.update(fused_activation_kinds(op))
    out = set(names)
    for cls in KIND_CLASSES:
        if names & cls:
            out |= cls
    return out


def _key(op: Op):
    if op.location is None:
        return None
    return op.location.file, op.location.line, op.module


def _closest(value: np.ndarray, candidates, ref, kinds=None):
    """(pcc, max abs error, layout, close), the candidate op whose value is closest to `value` among those of one of
    `kinds` (any kind when None), and how many candidates fit its shape; (None, None, 0) when none does."""
    best, best_ref, fitting = None, None, 0
    v64 = np.asarray(value, dtype=np.float64)
    for candidate in candidates:
        if kinds is not None and not (_kinds(candidate) & kinds):
            continue
        for ref_value in ref.of(candidate):
            if ref_value.size != v64.size:
                continue
            found = best_alignment(v64, ref_value)
            if found is None:
                continue
            fitting += 1
            if best is None or (found[3], found[0]) > (best[3], best[0]):
                best, best_ref = found, candidate
                if best[3] and best[0] >= PERFECT:  # agreeing: the fitting count no longer matters
                    return best, best_ref, fitting
    return best, best_ref, fitting


def compare_stages(b: BringupRecord, reference_stage: str, stage: str, min_pcc: float = 0.999, precision: str = "ir",
                   timeout: float = 600.0) -> StageComparison:
    """Run `reference_stage` and `stage` once each, every op's value recorded, and compare op by op."""
    if stage == "ttsim":
        return _against_simulator(b, reference_stage, min_pcc, timeout)
    for s in (reference_stage, stage):
        if s not in VALUE_STAGES:
            raise BadInput(f"compare_stages takes stages among {', '.join(VALUE_STAGES)}, not {s!r}")
    if VALUE_STAGES.index(reference_stage) >= VALUE_STAGES.index(stage):
        raise BadInput(f"compare_stages(earlier, later): {reference_stage!r} does not come before {stage!r} "
                       f"(order: {' -> '.join(VALUE_STAGES)})")
    result = StageComparison(model=b.model_name, reference_stage=reference_stage, stage=stage, min_pcc=min_pcc)
    t0 = time.perf_counter()
    for s in (reference_stage, stage):  # a program the interpreter refuses is known before anything runs
        if s in PROGRAM_STAGES and s in b.stages and b.stages[s].ok:
            refused = refusal(s, b.stages[s].full_text())
            if refused:
                result.not_run = refused
                return result
    try:
        ref = stage_values(b, reference_stage, precision, timeout)
        got = stage_values(b, stage, precision, timeout)
    except NotRun as exc:
        result.not_run = str(exc)
        return result
    result.reference_producer, result.producer = ref.produced_by, got.produced_by
    result.reference_ops = len(ref.ops)
    # Const-eval ops (computed once from the weights) are matched only with weight-only work of the earlier stage:
    # its own const-eval ops. A run-time op of the same line, kind and shape is another computation.
    by_module: dict = {}
    by_line: dict = {}
    for op in ref.ops:
        key = _key(op)
        if key is not None:
            by_module.setdefault((_is_const_eval(op),) + key, []).append(op)
            by_line.setdefault((_is_const_eval(op),) + key[:2], []).append(op)
    reference_has_const_eval = any(_is_const_eval(op) for op in ref.ops)
    for op in got.ops:
        if op.name.endswith(_NOT_COMPARED_SUFFIXES):
            continue
        key = _key(op)
        if key is None:
            result.unmatched.append(OpMatch(op, None, reason="no source location to match by"))
            continue
        const_eval = _is_const_eval(op)
        if const_eval and not reference_has_const_eval:
            result.unmatched.append(OpMatch(op, None, reason=f"computed once from the weights (const-eval); "
                                                             f"{reference_stage} has no weight-only op to compare "
                                                             f"it with"))
            continue
        module_key, line_key = (const_eval,) + key, (const_eval,) + key[:2]
        value = got.of(op)[0]
        movement = op.name.endswith(MOVEMENT_SUFFIXES)
        kinds = None if movement else _kinds(op)
        best, best_ref, fitting = _closest(value, by_module.get(module_key, ()), ref, kinds)
        if best is None or not agrees(best, min_pcc):
            # A fusion: the op holds the value of another op of its line, of any kind or module (a conv with its
            # batch norm folded in, a matmul with its bias). Agreeing with one of them is no divergence.
            fused, fused_ref, _ = _closest(value, by_line.get(line_key, ()), ref)
            if fused is not None and agrees(fused, min_pcc):
                label = f"{fused[2]}; fused: holds the value of {fused_ref.name}" + \
                    (f" of module {fused_ref.module}" if fused_ref.module != op.module else "")
                best, best_ref, fitting = (fused[0], fused[1], label, fused[3]), fused_ref, 1
        if best is not None and not agrees(best, min_pcc) and fitting > 1:
            # Several ops of its kind and shape at this line, none with its value: a rewrite's intermediate
            # (a decomposed layer norm's products) as likely as a divergence, so it is not called either.
            result.unmatched.append(OpMatch(op, None, reason=f"{fitting} values of its kind and shape at this line "
                                                             f"in {reference_stage}, none equal to it"))
        elif best is None or (movement and not agrees(best, min_pcc)):
            if line_key not in by_line:
                reason = f"no {'const-eval ' if const_eval else ''}op of {reference_stage} at this line"
            elif movement:
                reason = f"moves or retypes values; no op of {reference_stage} at this line holds the same values"
            else:
                reason = (f"no op of {reference_stage} at this line computes {op.name.split('.', 1)[-1]} with "
                          f"shape {list(value.shape)} (an intermediate of a rewrite)")
            result.unmatched.append(OpMatch(op, None, reason=reason))
        else:
            p, max_abs, layout, _ = best
            result.rows.append(OpMatch(op, best_ref, pcc=p, max_abs_error=max_abs, layout=layout,
                                       ok=agrees(best, min_pcc)))
        if op.index in got.after_activations:
            result.rows.append(_after_activations(op, got.after_activations[op.index], line_key, by_line, ref,
                                                  min_pcc, reference_stage))
    result.unmatched.extend(m for m in result.rows if m.reference is None)
    result.rows = [m for m in result.rows if m.reference is not None]
    _mark_findings(b, stage, result.rows + result.unmatched)
    result.seconds = time.perf_counter() - t0
    return result


def _mark_findings(b: BringupRecord, stage: str, rows: list) -> None:
    """Rows of ops a semantic finding is about carry it (when the bringup's findings are made): a PCC that passes
    there may still be the wrong reading of a documented choice (a tanh gelu read as erf differs by ~2e-4)."""
    known = b._findings  # only findings already made: a comparison never starts the analyses (a notebook shows them)
    if known is None:
        return
    semantic = {f.details.get("index"): f for f in known.of("semantic") if f.stage == stage}
    for row in rows:
        found = semantic.get(row.op.index)
        if found is not None and (not found.details.get("fused") or row.part):
            row.finding = (f"semantic finding: the source matches the {found.details.get('matches')} reading, the "
                           f"interpreter computes the documented one")


def _is_const_eval(op: Op) -> bool:
    return "const_eval" in (op.attrs.get("func") or "")


def _after_activations(op: Op, fused, line_key, by_line: dict, ref, min_pcc: float, reference_stage: str) -> OpMatch:
    """The op's value after its fused activations against the earlier stage's activation: at the op's own line, any
    activation kind (so a changed one, relu -> sigmoid, is compared with the earlier relu and diverges here, not at
    the next op); where the line has none, the named activation anywhere (a residual add's relu is another line's;
    relu6 may be a maximum and a minimum there)."""
    kinds, value = fused
    part = f"after {' then '.join(kinds)}"
    at_line = [c for c in by_line.get(line_key, ()) if _kinds(c) & _ACTIVATION_KINDS]
    best, best_ref, _ = _closest(value, at_line, ref)
    if best is None:  # no activation of its shape at its line
        named = kinds_of(kinds[-1]) | COMPOSED_ACTIVATIONS.get(kinds[-1], set())
        same_funcs = [c for c in ref.ops if _is_const_eval(c) == line_key[0]]
        best, best_ref, _ = _closest(value, same_funcs, ref, named)
    if best is None:
        return OpMatch(op, None, part=part, reason=f"no activation of {reference_stage} holds a value of its shape "
                                                   f"(it may compute {kinds[-1]} as several ops)")
    return OpMatch(op, best_ref, pcc=best[0], max_abs_error=best[1], layout=best[2], ok=agrees(best, min_pcc),
                   part=part)


def _against_simulator(b: BringupRecord, reference_stage: str, min_pcc: float, timeout: float) -> StageComparison:
    """ttnn -> ttsim: the same program's ops in ttbench's interpreter and on the simulator, each op on the
    interpreter's values of its operands (isolated), so a drop is that op's own arithmetic on the device. The ops
    and their outcomes are the simulator op-by-op report's (one classifier: compare.outcomes.verdicts)."""
    if reference_stage != StageName.TTNN:
        raise BadInput(f"'ttsim' replays the TTNN program: compare it with 'ttnn' (got {reference_stage!r})")
    t0 = time.perf_counter()
    try:
        done = simulate_ops(b, "isolated", timeout=timeout)
    except NotSimulated as exc:
        result = _simulator_record(b, min_pcc)
        result.not_run = str(exc)
        return result
    result = simulator_comparison(b, done, min_pcc)
    result.seconds = time.perf_counter() - t0
    return result


def simulator_comparison(b: BringupRecord, done: SimulatedOps, min_pcc: float) -> StageComparison:
    """One isolated replay as a ttnn -> ttsim stage comparison: a row per op `verdicts` compared, the others
    unmatched with what stopped them."""
    result = _simulator_record(b, min_pcc)
    result.reference_ops = len(done.interpreted)
    for verdict in verdicts(done, min_pcc):
        op, check = verdict.op.op, verdict.check
        if check is None:
            result.unmatched.append(OpMatch(op, None, reason=verdict.detail))
        else:
            result.rows.append(OpMatch(op, op, pcc=check["pcc"], max_abs_error=check["max_abs_error"],
                                       layout="same", ok=check["ok"]))
    return result


def _simulator_record(b: BringupRecord, min_pcc: float) -> StageComparison:
    result = StageComparison(model=b.model_name, reference_stage=StageName.TTNN, stage="ttsim", min_pcc=min_pcc)
    reference_producer, producer = producers()
    result.reference_producer, result.producer = f"{interpreter_device('ttnn')}: {reference_producer}", producer
    return result
