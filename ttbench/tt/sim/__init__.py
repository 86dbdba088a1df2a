"""The TTNN program on Tenstorrent's simulator: the interpreter's program model (tt/program.py), replayed as ttnn
calls on a simulated Blackhole (ttsim) in a Python 3.12 side environment.

env.py makes and finds the side environment and the user's simulator; executor.py is the parent side (the program
as JSON, the child, its progress, aborts pinned to their op, clean-up); replay.py and unpack_sfpi.py are the plain
scripts the side environment runs (they never import ttbench).
"""
from .executor import PRODUCER, NotSimulated, Simulated, available, simulate

__all__ = ["PRODUCER", "NotSimulated", "Simulated", "available", "simulate"]
