"""What the MLIR stages share: turning an in-memory torch-mlir module into a `Stage`."""
from __future__ import annotations

import os
import re
import tempfile

from ..core import CompilerFailure, Stage
from ..ir.walk import walk_ops

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


def mlir_stage(name: str, module, seconds: float, meta=None) -> Stage:
    """A Stage over a module that stays alive (and unchanged: later stages work on clones)."""
    meta = {**(meta or {}), "verifier": verifier_error(module)}
    stage = Stage(name=name, ok=True, text=readable_text(module), ops=walk_ops(module), seconds=seconds, meta=meta,
                  module=module)
    stage._full_text = lambda: full_text(module)
    return stage


def clone_module(module):
    """An independent copy to lower in place, so the previous stage keeps its own IR."""
    from torch_mlir import ir

    with module.context:
        return ir.Module.parse(module.operation.get_asm(enable_debug_info=True, binary=True))


def _diagnostic_location(where: str) -> str:
    from ..ir.locations import LocTable, user_frame

    if where.startswith("loc(") and where.endswith(")"):
        frames = LocTable("").frames(where[4:-1])
    elif where.startswith(("callsite(", "fused", '"')) and not re.match(r'^"[^"]*":\d+:\d+$', where):
        frames = LocTable("").frames(where)
    else:
        m = re.match(r"(.*):(\d+):\d+$", where)
        frames = ()
        if m:
            from ..core import SourceLoc

            frames = (SourceLoc(m.group(1), int(m.group(2))),)
    loc = user_frame(frames) or (frames[0] if frames else None)
    return f" (at {loc.short})" if loc else ""


def compiler_error(stage_name: str, message: str) -> str:
    """One line: the stage, the first diagnostic (its op named), and where it points in the user's source."""
    lines = message.splitlines()
    for line in lines:  # the verifier's form: "error: LOC: 'op' op message"
        m = re.match(r"^error: (.+?): ('[\w.$]+' op .*)$", line.strip())
        if m:
            return f"{stage_name}: {m.group(2)[:300]}{_diagnostic_location(m.group(1))}"
    for line in lines:
        if ": error: " in line:
            where, _, what = line.partition(": error: ")
            what, _, dump = what.partition(": %")  # drop the IR dump of the op; its name is in the message
            custom = re.search(r'name = "([^"]+)"', dump)
            if "'torch.operator'" in what and custom:  # name the op torch-mlir only knows as torch.operator
                what = what.replace("'torch.operator'", f"'torch.operator' ({custom.group(1)})")
            what = what.strip()
            return f"{stage_name}: {what[:300]}{_diagnostic_location(where.strip())}"
    for line in lines:
        if "error" in line.lower() and line.strip():
            return f"{stage_name}: {line.strip()[:300]}"
    first = next((l for l in lines if l.strip()), message)
    return f"{stage_name}: {first.strip()[:300]}"


WORKER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "mlir_worker.py")


def run_pipelines(module, pipelines: list):
    """Run torch-mlir pass pipelines [(pipeline, description), ...] on a copy of `module` in a child process and
    return the lowered module (in `module`'s context; `module` itself is untouched). A compiler crash (torch-mlir
    segfaults on some inputs) becomes a CompilerFailure naming the signal and the pipeline, never the caller's
    death; MLIR's diagnostics come back as the child's stderr, so this process's fd 2 is never redirected."""
    import signal
    import subprocess
    import sys

    from torch_mlir import ir

    from ..children import spawn_options
    from ..scratch import remove_orphans

    remove_orphans("ttbench-passes-")
    with tempfile.TemporaryDirectory(prefix=f"ttbench-passes-{os.getpid()}-") as tmp:
        source, out = os.path.join(tmp, "in.mlirbc"), os.path.join(tmp, "out.mlirbc")
        with open(source, "wb") as f:
            f.write(module.operation.get_asm(enable_debug_info=True, binary=True))
        args = [a for pair in pipelines for a in pair]
        done = subprocess.run([sys.executable, WORKER, source, out, *args], capture_output=True, text=True,
                              errors="replace", **spawn_options())
        if done.returncode == 0:
            module.context.load_all_available_dialects()  # what the passes loaded in the child
            with module.context, open(out, "rb") as f:
                return ir.Module.parse(f.read())
        steps = [l.split(": ", 1)[1] for l in done.stdout.splitlines() if l.startswith(("running: ", "failed: "))]
        where = steps[-1] if steps else pipelines[0][1]
        if done.returncode < 0:
            name = signal.Signals(-done.returncode).name
            raise CompilerFailure(f"torch-mlir crashed ({name}) in {where}")
        raise CompilerFailure(f"{done.stderr.strip()}\n{where} failed")
