"""What the MLIR stages share: turning an in-memory torch-mlir module into a `Stage`."""
from __future__ import annotations

import io
import os
import re
import time
from typing import Optional, Sequence

from ..core import CompilerFailure, SourceLoc, Stage, human_bytes
from ..ir.locations import LocTable, user_frame
from ..ir.walk import walk_ops
from ..proc.children import in_disposable_job
from ..proc.passes import OUT_OF_MEMORY, WORKER_FAULT_ENV, start_pipelines as start_in_worker

# Large enough to keep shapes and small literals readable, small enough that ResNet-50 prints in KBs, not 190 MB.
ELIDE_LIMIT = 16


def readable_text(module) -> str:
    return module.operation.get_asm(enable_debug_info=True, large_elements_limit=ELIDE_LIMIT,
                                    large_resource_limit=ELIDE_LIMIT)


def full_text(module) -> str:
    return module.operation.get_asm(enable_debug_info=True)


def verifier_error(module):
    """The MLIR verifier's complaint about `module`, or None. Importers do not verify what they build: an FX graph
    with in-place ops imports into IR that only fails later, somewhere else, unless it is checked here."""
    try:
        module.operation.verify()
        return None
    except Exception as exc:  # torch_mlir.ir.MLIRError carries the diagnostics in its message
        return str(exc).strip() or type(exc).__name__


def stage_beside(name: str, module, seconds: float, start_next):
    """(the Stage of `module`, what `start_next(module)` returned): the next stage's work is started first (the
    lowering, in its worker process) so that it runs while this one is read (walk, verifier, text). If reading
    fails, the started work is cancelled: the failure is this stage's."""
    started = start_next(module)
    try:
        return mlir_stage(name, module, seconds), started
    except BaseException:
        started.cancel()
        raise


def mlir_stage(name: str, module, seconds: float, meta=None) -> Stage:
    """A Stage over a module that stays alive (and unchanged: later stages work on clones)."""
    meta = {**(meta or {}), "verifier": verifier_error(module)}
    stage = Stage(name=name, ok=True, text=readable_text(module), ops=walk_ops(module), seconds=seconds, meta=meta,
                  module=module)
    stage._full_text = lambda: full_text(module)
    return stage


def bytecode(module) -> bytes:
    """The module as MLIR bytecode, locations kept: what a clone, or a module kept on disk, is parsed back from."""
    return module.operation.get_asm(enable_debug_info=True, binary=True)


def clone_module(module):
    """An independent copy to lower in place, so the previous stage keeps its own IR."""
    from torch_mlir import ir

    with module.context:
        return ir.Module.parse(bytecode(module))


def _diagnostic_location(where: str, node_kinds: dict) -> str:
    """' (ONNX node N (Kind), at file:line)' for a diagnostic's location text; '' when it has neither."""
    if where.startswith("loc(") and where.endswith(")"):
        frames = LocTable("").frames(where[4:-1])
    elif where.startswith(("callsite(", "fused", '"')) and not re.match(r'^"[^"]*":\d+:\d+$', where):
        frames = LocTable("").frames(where)
    else:
        m = re.match(r"(.*):(\d+):\d+$", where)
        frames = ()
        if m:
            frames = (SourceLoc(m.group(1), int(m.group(2))),)
    loc = user_frame(frames) or (frames[0] if frames else None)
    parts = [f"at {loc.short}"] if loc else []
    # torch-mlir's ONNX importer names each op's location after its node: loc("node"(...)) or loc("node"), inside
    # the module path ttbench puts outermost (loc("module[encoder.0]"("node"(...))))
    named = re.match(r'^(?:loc\()?(?:"module\[(?:[^"\\]|\\.)*"\()?"((?:[^"\\]|\\.)*)"(?:\(|\)?$)', where)
    if named and named.group(1) in node_kinds:
        node, kind = named.group(1), node_kinds[named.group(1)]
        parts.insert(0, f"ONNX node {node} ({kind})" if node else f"ONNX {kind} node (unnamed)")
    return f" ({', '.join(parts)})" if parts else ""


def compiler_error(stage_name: str, message: str, node_kinds: Optional[dict] = None,
                   previous_ops: Sequence = ()) -> str:
    """A stage's error: the headline (_headline: the stage, the first diagnostic with its op, where it points),
    then, one per line, what the upstream message itself says to do (its "Hint:" lines), the pass that failed, and
    ttbench's next step where one is known. `previous_ops`: the previous stage's ops, to name the real op when the
    compiler names only a constant it could not convert."""
    headline = _headline(stage_name, message, node_kinds or {})
    headline = _lead_with_the_op(headline, message, previous_ops)
    lines = [line.strip() for line in message.splitlines()]
    user_code = next((i for i, line in enumerate(lines) if line == "from user code:"), None)
    if user_code is not None and " (at " not in headline:  # dynamo's own pointer into the user's code
        frame = next((m for m in (re.match(r'File "(.+)", line (\d+)', line) for line in lines[user_code + 1:]) if m),
                     None)
        if frame:
            headline += f" (at {SourceLoc(frame.group(1), int(frame.group(2))).short})"
    notes = [f"upstream hint: {line[len('Hint:'):].strip()}" for line in lines
             if line.startswith("Hint:") and "report an issue" not in line.lower()]
    failed_pass = next((m.group(1) for m in (re.match(r"^(.+ -> .+) failed$", line) for line in lines) if m), None)
    out_of_memory = OUT_OF_MEMORY.search(message) is not None
    if failed_pass:
        notes.append(f"{'ran out of memory ' if out_of_memory else ''}in the pass pipeline {failed_pass!r}")
    if out_of_memory:
        notes.extend(_largest_tensor_notes(previous_ops))
    if re.search(r"'torch\.aten\.\w+_\.\w+' op", headline):
        notes.append("next step: torch-mlir takes no in-place op (its name ends in _): bring the model up with "
                     "functionalize=True (dynamo frontend, `--functionalize`) or with the export frontend, which "
                     "rewrite them out of place")
    return headline + "".join(f"\n  {note}" for note in notes)


def _largest_tensor_notes(ops: Sequence) -> list:
    """For a pass that ran out of memory, which says nowhere on which op: the ops of its input with the largest
    results, the place to start looking (a constant to hoist, a tensor to shrink)."""
    sized = sorted((op for op in ops if op.attrs.get("result_bytes")), key=lambda op: -op.attrs["result_bytes"])[:3]
    if not sized:
        return []
    shown = ", ".join(f"{op.name} ({human_bytes(op.attrs['result_bytes'])}"
                      f"{f' at {op.location.short}' if op.location else ''})" for op in sized)
    return [f"the compiler does not say on which op; its input's largest results: {shown}",
            "next step: hoist large constants out of the IR (params='args', or hoist=dict(min_numel=...)), or shrink "
            "the model's sizes, or give the machine more memory"]


_BOOKKEEPING = re.compile(r"'(torch\.constant\.\w+|torch\.prim\.\w+)'")


def _lead_with_the_op(headline: str, message: str, previous_ops: Sequence) -> str:
    """torch-mlir reports "failed to legalize operation 'torch.constant.int'" when the op that uses the constant has
    no lowering: the constant is only the first illegal op it met. Lead with the op(s) at that line that use a
    constant of that value (the previous stage's ops; every op there that is not bookkeeping if none does)."""
    bookkeeping = _BOOKKEEPING.search(headline)
    where = re.search(r"\(at ([^,)]+)\)", headline)
    if not bookkeeping or not where or "failed to legalize" not in headline:
        return headline
    at_line = [op for op in previous_ops if op.location is not None and op.location.short == where.group(1)]
    value = re.search(r"value = ([^ :>]+)", message)
    names = {m.group(1) for op in at_line if op.name == bookkeeping.group(1)
             for m in [re.match(r"(%[\w.$-]+) = \S+ (\S+)$", op.text.strip())]
             if m and value and m.group(2) == value.group(1)}
    real = [op for op in at_line if not op.name.startswith(("torch.constant.", "torch.prim."))]
    users = [op for op in real if any(re.search(re.escape(n) + r"\b(?![\w.$-])", op.text) for n in names)] or real
    users = list(dict.fromkeys(op.name for op in users))
    if not users:
        return headline
    stage, _, rest = headline.partition(": ")
    return (f"{stage}: {' or '.join(users)} at {where.group(1)} was not lowered (torch-mlir names only an operand it "
            f"could not convert: {rest.replace(f' (at {where.group(1)})', '')})")


# Lines that only point at an error told elsewhere (torch.export ends its messages with them), never the headline.
_ERROR_BANNER = re.compile(r"^The (following call raised this error|error above occurred)|.*:$")


def _headline(stage_name: str, message: str, node_kinds: dict) -> str:
    """One line: the stage, the first diagnostic (its op named), and where it points: the ONNX node (node_kinds:
    node name -> op type, for ONNX bringups) and the user's source line."""
    lines = message.splitlines()
    for line in lines:  # the verifier's form: "error: LOC: 'op' op message"
        m = re.match(r"^error: (.+?): ('[\w.$]+' op .*)$", line.strip())
        if m:
            return f"{stage_name}: {m.group(2)[:300]}{_diagnostic_location(m.group(1), node_kinds)}"
    for line in lines:
        if ": error: " in line:
            where, _, what = line.partition(": error: ")
            what, _, dump = what.partition(": %")  # drop the IR dump of the op; its name is in the message
            custom = re.search(r'name = "([^"]+)"', dump)
            if "'torch.operator'" in what and custom:  # name the op torch-mlir only knows as torch.operator
                what = what.replace("'torch.operator'", f"'torch.operator' ({custom.group(1)})")
            what = what.strip()
            return f"{stage_name}: {what[:300]}{_diagnostic_location(where.strip(), node_kinds)}"
    for line in lines:
        if "error" in line.lower() and line.strip() and not _ERROR_BANNER.match(line.strip()):
            return f"{stage_name}: {line.strip()[:300]}"
    first = next((l for l in lines if l.strip()), message)
    return f"{stage_name}: {first.strip()[:300]}"


def _run_pipelines_here(module, pipelines: list):
    from ..proc.mlir_worker import run_job  # lazy: the pass worker's own loop, for a caller that is contained

    diagnostics: list = []
    handler = module.context.attach_diagnostic_handler(
        lambda d: diagnostics.append((d.location, d.severity, d.message)) or True)
    err = io.StringIO()
    try:
        with module.context:
            module.context.emit_error_diagnostics = True  # as in the worker: see mlir_worker.main
            failed, lowered = run_job(lambda: clone_module(module), pipelines, diagnostics, err,
                                      os.environ.get(WORKER_FAULT_ENV, ""))
    finally:
        handler.detach()
    if failed is not None:
        raise CompilerFailure(f"{err.getvalue().strip()}\n{failed} failed")
    return lowered


def run_pipelines(module, pipelines: list, contained: bool = False):
    """Run torch-mlir pass pipelines [(pipeline, description), ...] on a copy of `module` in a child process and
    return the lowered module (in `module`'s context; `module` itself is untouched). A compiler crash (torch-mlir
    segfaults on some inputs) becomes a CompilerFailure naming the signal and the pipeline, never the caller's
    death; MLIR's diagnostics come back as the child's stderr, so this process's fd 2 is never redirected.
    `contained`: the caller is itself a child whose crash is contained (the op-by-op worker): the passes run here,
    saving a process start (~0.25 s) per op, and a failure reads the same."""
    if contained:
        return _run_pipelines_here(module, pipelines)
    return start_pipelines(module, pipelines).result()


def start_pipelines(module, pipelines: list):
    """run_pipelines started in the background (proc.passes): the worker lowers while the caller goes on; in a
    disposable job (proc.children.in_disposable_job) they run here at once, the job process being the container."""
    if in_disposable_job():
        return PipelinesRunHere(module, pipelines)
    return start_in_worker(module, pipelines)


class PipelinesRunHere:
    """The pipelines of a disposable job, run in this process when their result is asked for (in the stage that
    needs it: a job that dies there names that stage); the same `result()`, `cancel()` and `started` as
    proc.passes.PendingPipelines, a failure said the same way."""

    def __init__(self, module, pipelines: list):
        self.module, self.pipelines, self.started = module, pipelines, time.monotonic()

    def cancel(self) -> None:
        self.module = None

    def result(self):
        self.started = time.monotonic()
        return _run_pipelines_here(self.module, self.pipelines)
