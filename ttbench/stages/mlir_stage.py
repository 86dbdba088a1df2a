"""What the MLIR stages share: turning an in-memory torch-mlir module into a `Stage`."""
from __future__ import annotations

import re
import threading

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


_FD2_LOCK = threading.Lock()


def run_passes(module, pipeline: str, description: str) -> None:
    """Run a torch-mlir pass pipeline with MLIR's native diagnostics (written to fd 2) captured into the
    exception, so the stage's error can name the op and source line."""
    import os
    import tempfile

    from torch_mlir.compiler_utils import run_pipeline_with_repro_report

    # fd 2 belongs to the whole process: only one pass pipeline at a time points it at the capture file.
    with _FD2_LOCK, tempfile.TemporaryFile(mode="w+b") as capture:
        saved = os.dup(2)
        os.dup2(capture.fileno(), 2)
        try:
            run_pipeline_with_repro_report(module, pipeline, description)
        except Exception as exc:
            os.dup2(saved, 2)
            capture.seek(0)
            native = capture.read().decode(errors="replace")
            raise CompilerFailure(f"{native}\n{exc}") from None
        finally:
            os.dup2(saved, 2)
            os.close(saved)
