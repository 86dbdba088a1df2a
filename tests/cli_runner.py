"""The `ttbench` command run in this test process: what a user at a terminal would see, without a fresh interpreter
and torch import per call."""
import contextlib
import io
import os
import subprocess

from ttbench.cli import main


def run_cli(*args, cwd=None) -> subprocess.CompletedProcess:
    """Exit code, stdout and stderr of `ttbench ARGS` (argparse's own exits included)."""
    out, err, here = io.StringIO(), io.StringIO(), os.getcwd()
    try:
        if cwd:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())
