"""Reading MLIR, in one room.

- walk.py: modules held in memory (torchfx, stablehlo, hoisted) are walked with torch-mlir's own bindings:
  ops, their locations, def-use names and constants as numpy arrays. Nothing is re-parsed from printed text.
- text.py: the one parser of printed MLIR, for what exists only as text — TTIR/TTNN files the Tenstorrent plugin
  writes and export folders read back by `ttbench diff`. It follows the printer's rules (region ops over several
  lines, MLIR's string escaping) so it agrees with walk.py on the same IR.
- locations.py: `loc(...)` bodies and Python stack traces -> source frames, and which frame is the user's.
"""
