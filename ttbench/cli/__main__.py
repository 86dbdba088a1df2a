"""`python -m ttbench.cli`."""
import sys

from . import main

sys.exit(main())
