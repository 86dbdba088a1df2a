"""What the MLIR stages share: turning an in-memory torch-mlir module into a `Stage`."""
from __future__ import annotations

import re

from ..core import Stage
from ..mlir_text import parse_ops

# Large enough to keep shapes and small literals readable, small enough that ResNet-50 prints in KBs, not 190 MB.
ELIDE_LIMIT = 16


def readable_text(module) -> str:
    return module.operation.get_asm(enable_debug_info=True, large_elements_limit=ELIDE_LIMIT,
                                    large_resource_limit=ELIDE_LIMIT)


def full_text(module) -> str:
    return module.operation.get_asm(enable_debug_info=True)


def mlir_stage(name: str, module, seconds: float, meta=None) -> Stage:
    """A Stage over a module that stays alive (and unchanged: later stages work on clones)."""
    text = readable_text(module)
    stage = Stage(name=name, ok=True, text=text, ops=parse_ops(text), seconds=seconds, meta=dict(meta or {}),
                  module=module)
    stage._full_text = lambda: full_text(module)
    return stage


def clone_module(module):
    """An independent copy to lower in place, so the previous stage keeps its own IR."""
    from torch_mlir import ir

    with module.context:
        return ir.Module.parse(module.operation.get_asm(enable_debug_info=True, binary=True))


_DIAG_RE = re.compile(r"^(.*?):(\d+):\d+: error: (.*)$", re.M)


def compiler_error(stage_name: str, message: str) -> str:
    """One line: the stage, the first diagnostic, and where it points in the user's source."""
    m = _DIAG_RE.search(message)
    if m:
        where = f" (at {m.group(1).rsplit('/', 1)[-1]}:{m.group(2)})"
        return f"{stage_name}: {m.group(3).strip()}{where}"
    for line in message.splitlines():
        if "error" in line.lower() and line.strip():
            return f"{stage_name}: {line.strip()}"
    first = next((l for l in message.splitlines() if l.strip()), message)
    return f"{stage_name}: {first.strip()}"
