"""`python -m ttbench.tt.sim [FOLDER]` (what `make sim-env` runs): make the simulator's side environment."""
import sys

from .env import build

if __name__ == "__main__":
    sys.exit(build(sys.argv[1] if len(sys.argv) > 1 else None))
