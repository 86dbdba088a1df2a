"""Walking a TTIR/TTNN program (tt/program.py) op by op in torch with the registered handlers, element types as the IR
says, const-eval functions run through `ttcore.load_cached`, each op's values recorded when asked.

What it vouches for: the compiler's program, read with ttnn's and tt-mlir's documented semantics, computed on the
CPU. What it cannot: the chip's kernels (math fidelity, SFPU approximations, tile packing), which only a device or a
simulator shows. Every result it produces says so (`PRODUCER`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Optional

import torch

from ...core import REPORT_BUGS
from ...ir.attributes import TextLimit
from ...ir.op_head import TensorType
from ..constants import torch_dtype
from ..program import Function, Program, ProgramError, ProgramOp, ProgramUnreadable, parse_program
from .handlers import READINGS
from .registry import HANDLERS, InPlace, InterpreterBug, ProgramFault, Unsupported, op_place, unsupported_reason

PRODUCER = "ttbench's interpreter of the compiler's program (CPU, torch): checks what the compiler emitted, not the " \
           "chip's kernels or math fidelity"
PRECISIONS = ("ir", "bf16")

@dataclass
class Interpretation:
    outputs: list  # main's results, torch tensors in the IR's element types
    values: dict = field(default_factory=dict)  # op index -> its results (tensors), when recorded; an op with
    # fused output activations is recorded before them (the value its own source line computes)
    inputs: dict = field(default_factory=dict)  # op index -> its operands, recorded for ops with READINGS and
    # those asked for (`inputs_of`)
    seconds: float = 0.0
    results: dict = field(default_factory=dict)  # op index -> its results as later ops get them (after fused
    # activations), when recorded: what another executor of the same program is fed and compared with
    fused: dict = field(default_factory=dict)  # op index -> the fused output activations applied after its
    # recorded value (`values`), in order, for the ops that have them; `results` holds the value after them


class Context:
    """One run: the program, the value of every SSA name per call, the const-eval cache."""

    def __init__(self, program: Program, precision: str, record: bool, inputs_of=frozenset(), exact=frozenset()):
        self.readings = READINGS
        self.exact = exact  # op indices computed at the IR's precision in a reduced-precision run (drift's healing)
        self.exact_depth = 0  # >0 while a healed ttcore.load_cached runs its const-eval function
        self.inputs_of = inputs_of  # op indices whose operands are recorded too (a reproduction's inputs)
        self.program = program
        self.precision = precision
        self.record = record
        self.values: dict = {}
        self.inputs: dict = {}
        self.results: dict = {}
        self.before_activation: dict = {}  # op index -> (its value before fused output activations, their kinds)
        self.fused: dict = {}
        self.const_eval_cache: dict = {}

    def call(self, fn: Function, inputs: list) -> list:
        env = dict(zip(fn.arguments, inputs))
        for step in self.plan[fn.name]:
            op = step.op
            try:
                args = [env[name] for name in op.operands]
            except KeyError as exc:
                raise InterpreterBug(f"{op.name} #{op.op.index} uses {exc.args[0]} before it is defined") from None
            if step.no_value:  # bookkeeping (deallocate): nothing to compute or bind
                continue
            results = self.execute(step, args)
            if isinstance(results, InPlace):
                env.update({op.operands[i]: value for i, value in results.updates.items()})
                continue
            env.update(zip(op.results, results))
        missing = [r for r in fn.returns if r not in env]
        if missing:
            raise InterpreterBug(f"@{fn.name} returns {', '.join(missing)}, which no op defined")
        return [env[r] for r in fn.returns]

    def execute(self, step: "Step", args: list) -> list:
        op = step.op
        healed = op.op.index in self.exact
        self.exact_depth += healed
        try:
            out = step.fn(self, op, args)
        except (Unsupported, InterpreterBug, ProgramFault):
            raise
        except TextLimit as exc:  # a literal read as the op runs
            raise ProgramUnreadable(f"cannot read {op_place(op)}: {exc}") \
                from exc
        except Exception as exc:
            if isinstance(exc, ZeroDivisionError) or str(exc) == "ZeroDivisionError":  # torch's integer division
                raise ProgramFault(f"{op_place(op)} divides an integer by "
                                   f"zero") from exc
            raise InterpreterBug(f"{op_place(op)}: {type(exc).__name__}: "
                                 f"{str(exc)[:300]}") from exc
        finally:
            self.exact_depth -= healed
        if isinstance(out, InPlace):
            if op.results:
                raise InterpreterBug(f"{op.name} #{op.op.index} updates in place but the IR gives it results")
            if self.record:
                self.values[op.op.index] = list(out.updates.values())
            return out
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        if len(out) != len(op.results):
            raise InterpreterBug(f"{op.name} #{op.op.index} gave {len(out)} results, the IR defines "
                                 f"{len(op.results)}")
        reduced = self.precision == "bf16" and not healed and not self.exact_depth
        typed = [self._as_typed(op, value, t, dtype, reduced) for value, t, dtype in
                 zip(out, op.result_types, step.dtypes)]
        if self.record and any(isinstance(v, torch.Tensor) for v in typed):
            self.results[op.op.index] = typed
            before = self.before_activation.pop(op.op.index, None)
            if before is None:
                self.values[op.op.index] = typed
            else:
                self.values[op.op.index] = [self._as_typed(op, before[0], op.result_types[0], step.dtypes[0],
                                                           reduced)]
                self.fused[op.op.index] = before[1]
            if op.name in self.readings or op.op.index in self.inputs_of:
                self.inputs[op.op.index] = args
        return typed

    def _as_typed(self, op: ProgramOp, value, t: Optional[TensorType], dtype, reduced: bool = False):
        """The result in the IR's element type and shape (rounded to bf16 when `reduced`): a shape that disagrees
        is a misread op, said loudly."""
        if t is None:
            return value
        if not isinstance(value, torch.Tensor):
            raise InterpreterBug(f"{op.name} #{op.op.index} gave no tensor for a {t} result")
        if value.shape != t.shape:
            raise InterpreterBug(f"{op_place(op)} computed shape "
                                 f"{tuple(value.shape)}, the IR says {t}")
        if value.dtype != dtype:
            value = value.to(dtype)
        if reduced and dtype.is_floating_point and dtype != torch.bfloat16:
            value = value.to(torch.bfloat16).to(dtype)
        return value


@dataclass(frozen=True)
class Step:
    """One op as the engine runs it: its handler and result dtypes resolved once per program."""

    op: ProgramOp
    fn: Callable
    dtypes: tuple  # torch dtype per result (None for a non-tensor result)
    no_value: bool  # a bookkeeping op with neither results nor effect (ttnn.deallocate)


NO_VALUE_OPS = frozenset({"ttnn.deallocate"})


class Refused(Unsupported):
    """Every op the interpreter would refuse in one program, counted: the first named with its line, then how much
    is missing in all ("3 things it does not know, over 40 ops: ...")."""

    def __init__(self, refusals: list):
        first = refusals[0]
        Unsupported.__init__(self, first.op, first.what, first.why)
        missing = sorted({u.what or u.why for u in refusals})
        more = "; ".join(missing[:6]) + (f"; and {len(missing) - 6} more" if len(missing) > 6 else "")
        self.args = (f"{self}; in all {len(missing)} thing{'s' if len(missing) > 1 else ''} it does not know, "
                     f"over {len(refusals)} ops: {more}",)
        self.refusals = refusals


def _plan(program: Program) -> dict:
    """function name -> its Steps; refuses (Unsupported) what the interpreter does not know, before anything
    runs, counting every op it would refuse: a half-run program says nothing. Made once per Program."""
    plan = program.cache.get("interp.plan")
    if plan is not None:
        return plan
    plan, refusals = {}, []
    for fn in program.functions.values():
        steps = []
        for op in fn.ops:
            try:
                steps.append(_step(op))
            except Unsupported as exc:
                refusals.append(exc)
        plan[fn.name] = steps
    if len(refusals) == 1:
        raise refusals[0]
    if refusals:
        raise Refused(refusals)
    program.cache["interp.plan"] = plan
    return plan


def _step(op: ProgramOp) -> "Step":
    reason = unsupported_reason(op)
    if reason:
        raise Unsupported(op.op, reason)
    dtypes = []
    for t in op.result_types:
        try:
            dtypes.append(torch_dtype(t))
        except KeyError:
            raise Unsupported(op.op, f"element type {t.element}") from None
    handler = HANDLERS[op.name].fn
    prepare = getattr(handler, "prepare", None)  # a handler may read its attributes once, here
    return Step(op, prepare(op) if prepare else handler, tuple(dtypes), op.name in NO_VALUE_OPS)


def interpret(program: Program, arguments: list, precision: str = "ir", record: bool = False,
              inputs_of=frozenset(), exact=frozenset()) -> Interpretation:
    """Run `program`'s entry function on `arguments` (torch tensors, in order). precision="bf16" rounds every float
    result to bf16 (a stand-in for a bf16 compile), except the results of the ops in `exact` (op indices; a
    `ttcore.load_cached` there runs its whole const-eval function exactly): those are "healed", computed at the
    IR's precision on the rounded values they are given. Raises Unsupported (before any op runs) for what it does
    not know, InterpreterBug for its own failures."""

    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, not {precision!r}")
    plan = _plan(program)
    main = program.main
    if len(arguments) != len(main.arguments):
        raise InterpreterBug(f"@{main.name} takes {len(main.arguments)} arguments, {len(arguments)} were given")
    inputs = []
    for i, (value, t) in enumerate(zip(arguments, main.argument_types)):
        if t is not None and tuple(value.shape) != t.shape:
            raise InterpreterBug(f"argument {i} of @{main.name} is {tuple(value.shape)}, the IR says {t}")
        inputs.append(value.to(torch_dtype(t)) if t is not None else value)
    ctx = Context(program, precision, record, inputs_of, exact)
    ctx.plan = plan
    t0 = time.perf_counter()
    with torch.no_grad():
        outputs = ctx.call(main, inputs)
    return Interpretation(outputs=outputs, values=ctx.values, inputs=ctx.inputs, seconds=time.perf_counter() - t0,
                          results=ctx.results, fused=ctx.fused)


class NotInterpreted(Exception):
    """Why a program's values could not be had: what the interpreter does not know, or (internal=True) ttbench's
    own failure, said as such. Never a PCC."""

    def __init__(self, message: str, internal: bool = False):
        super().__init__(message)
        self.internal = internal


# Every way a program's run can end without values: what the interpreter does not know, the program's own fault,
# a text past what ttbench reads, ttbench's bug. why_not() words each.
NOT_INTERPRETED = (Unsupported, ProgramFault, InterpreterBug, ProgramError)


def why_not(exc: Exception) -> NotInterpreted:
    """The one wording of why a program was not (or not wholly) interpreted: what the interpreter does not know,
    the program's own fault, or ttbench's bug (internal)."""
    if isinstance(exc, Unsupported):
        return NotInterpreted(str(exc))
    if isinstance(exc, ProgramFault):
        return NotInterpreted(f"the compiled program faults: {exc}")
    if isinstance(exc, ProgramUnreadable):
        return NotInterpreted(str(exc))
    return NotInterpreted(f"internal error in ttbench's interpreter: {exc} ({REPORT_BUGS})", internal=True)


def refusal(stage: str, text: str) -> Optional[str]:
    """Why the interpreter would refuse this TTIR/TTNN text, known without running anything; None when it would
    run it."""
    try:
        _plan(parse_program(stage, text))
    except (Unsupported, ProgramError) as exc:
        return str(why_not(exc))
    return None


def interpret_text(stage: str, text: str, arguments: list, precision: str = "ir",
                   record: bool = False, inputs_of=frozenset()) -> Interpretation:
    """The TTIR/TTNN `text` parsed and interpreted on `arguments`; NotInterpreted says why not."""
    try:
        return interpret(parse_program(stage, text), arguments, precision=precision, record=record,
                         inputs_of=inputs_of)
    except NOT_INTERPRETED as exc:
        raise why_not(exc) from exc
