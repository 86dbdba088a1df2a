"""ttbench's interpreter of TTIR/TTNN programs: every op executed in torch by the handler registered for its kind.

registry.py is the table of handlers and the ways a run refuses; handlers.py holds one handler per op kind; engine.py
walks the program (const-eval through `ttcore.load_cached`, element types as the IR says, results recorded per
op). `HANDLERS` is the registry: `known_ops()` lists it.
"""
from .engine import (NOT_INTERPRETED, PRECISIONS, PRODUCER, Interpretation, NotInterpreted, interpret,
                     interpret_text, refusal, why_not)
from .handlers import ACTIVATION_READINGS, ACTIVATIONS, READINGS  # importing handlers registers every handler
from .registry import (ATTRIBUTE_FIELDS, HANDLERS, KERNEL_PRECISION_FIELDS, InterpreterBug, ProgramFault, Unsupported,
                       field_decision, unsupported_reason)


def known_ops() -> dict:
    """op kind -> the documented semantics its handler follows, sorted by dialect and name."""
    return {name: HANDLERS[name].reference for name in sorted(HANDLERS)}


__all__ = ["interpret", "interpret_text", "refusal", "NotInterpreted", "Interpretation", "Unsupported",
           "InterpreterBug", "HANDLERS", "PRODUCER", "PRECISIONS", "known_ops", "unsupported_reason", "READINGS",
           "ACTIVATION_READINGS", "ACTIVATIONS", "ATTRIBUTE_FIELDS", "KERNEL_PRECISION_FIELDS", "field_decision",
           "ProgramFault", "why_not", "NOT_INTERPRETED"]
