"""ttbench's interpreter of TTIR/TTNN programs: every op executed in torch by the handler registered for its kind.

engine.py walks the program (const-eval through `ttcore.load_cached`, element types as the IR says, results
recorded per op); handlers.py holds one handler per op kind. `HANDLERS` is the registry: `known_ops()` lists it.
"""
from . import handlers  # noqa: F401  (registers every handler)
from .handlers import READINGS
from .engine import (HANDLERS, PRECISIONS, PRODUCER, Interpretation, InterpreterBug, NotInterpreted, Unsupported,
                     interpret, interpret_text, unsupported_reason)


def known_ops() -> dict:
    """op kind -> the documented semantics its handler follows, sorted by dialect and name."""
    return {name: HANDLERS[name].reference for name in sorted(HANDLERS)}


__all__ = ["interpret", "interpret_text", "NotInterpreted", "Interpretation", "Unsupported", "InterpreterBug", "HANDLERS", "PRODUCER", "PRECISIONS",
           "known_ops", "unsupported_reason", "READINGS"]
