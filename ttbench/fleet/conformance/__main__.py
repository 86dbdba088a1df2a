"""`python -m ttbench.fleet.conformance worker`: one conformance worker process (see runner.py)."""
import sys

from .runner import worker_main

if sys.argv[1:2] == ["worker"]:
    sys.exit(worker_main())
sys.exit("usage: python -m ttbench.fleet.conformance worker")
