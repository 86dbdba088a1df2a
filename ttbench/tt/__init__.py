"""What the Tenstorrent compiler produced, as programs ttbench can execute.

- program.py: the TTIR/TTNN program model, parsed once from the stage's text (functions, const-eval functions,
  ops with operands, results, attributes, types, source locations).
- interp/: one executor of it, ttbench's own interpreter in torch: a handler per op kind, in a registry.
"""
