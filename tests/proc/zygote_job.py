"""A job for the zygote tests (python -m tests.proc.zygote_job WHAT ...): ends the way it is told to."""
import os
import subprocess
import sys
import time

what = sys.argv[1]
if what == "say":  # its environment, folder and arguments, as a fresh `python -m` would have them
    print(os.environ.get("ZYGOTE_TEST_VALUE"), os.getcwd(), sys.argv[2:])
    print("to stderr", file=sys.stderr)
    sys.exit(int(sys.argv[2]))
if what == "crash":
    os.abort()
if what == "hang":  # with a child of its own, which must go with it
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    with open(sys.argv[2], "w") as f:
        f.write(str(child.pid))
    time.sleep(120)
if what == "raise":
    raise ValueError("the job's own error")
