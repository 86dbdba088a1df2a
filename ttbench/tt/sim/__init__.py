"""The TTNN program on Tenstorrent's simulator: the interpreter's program model (tt/program.py), replayed as ttnn
calls on a simulated Blackhole (ttsim) in a Python 3.12 side environment.

env.py makes and finds the side environment and the user's simulator; executor.py is the parent side (the program
as JSON, the child, its progress, aborts pinned to their op, clean-up); replay.py and unpack_sfpi.py are the plain
scripts the side environment runs (they never import ttbench).

Import the module you need (tt.sim.env, tt.sim.executor): this package imports nothing itself, so that asking
whether a simulator is installed (`ttbench doctor`, the device list) never loads the interpreter and with it torch.
"""
