"""The Tenstorrent compiler: the plugin that runs it, and what it produced, as programs ttbench can execute.

- plugin.py: everything that talks to the Tenstorrent PJRT plugin (always in a child process: proc/tt_worker.py).
- program.py: the TTIR/TTNN program model, parsed once from the stage's text (functions, const-eval functions,
  ops with operands, results, attributes, types, source locations).
- interp/: one executor of it, ttbench's own interpreter in torch: a handler per op kind, in a registry.
"""
