"""The parent side of the device worker: start it, send requests with a timeout, survive its death."""
from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from typing import Optional

from .children import kill_group, spawn_options
from .scratch import private_tmp


def describe_exit(returncode: int) -> str:
    """How a child process ended, for one-line errors: "killed by SIGABRT", "exited with code 3"."""
    return f"killed by {signal.Signals(-returncode).name}" if returncode < 0 else f"exited with code {returncode}"


class WorkerDied(RuntimeError):
    """The worker crashed or hung; the message names the signal or the timeout and ends with its last log line."""


class WorkerClient:
    """One worker process for `device`, restarted on demand after a crash or timeout. Use as a context manager.
    By default the worker is run/worker.py; `command` (with its `env` and `cwd`) names another one that speaks
    the same protocol (the Tenstorrent compile worker, tt_worker.py serve)."""

    def __init__(self, device: str, start_timeout: float = 120.0, command: Optional[list] = None,
                 env: Optional[dict] = None, cwd: Optional[str] = None):
        self.device = device
        self.start_timeout = start_timeout
        self.command = command or [sys.executable, "-m", "ttbench.run.worker", device]
        # TMPDIR: jax may load the Tenstorrent plugin here too, and it writes fixed names there (see private_tmp)
        self.env = env if env is not None else dict(os.environ, JAX_PLATFORMS=device, PYTHONUNBUFFERED="1",
                                                    TMPDIR=private_tmp())
        self.cwd = cwd
        self.proc: Optional[subprocess.Popen] = None
        self.greeted = False  # the running worker's hello has been read
        self.unread = 0  # replies to requests sent ahead, not read yet
        self.pending = b""  # what the worker wrote after the last line read
        self.hello: dict = {}
        self.restarts = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def send_ahead(self, payload: dict) -> None:
        """Send a request whose reply nobody waits for now (starting the worker if needed, without waiting for
        it to be ready): it runs while the caller does its own work; the next request() reads and drops its
        reply first (a worker that died meanwhile is then that request's WorkerDied)."""
        if self.proc is None:
            if self.hello:
                self.restarts += 1
            self._spawn()
        if self._write(payload):
            self.unread += 1

    def _spawn(self) -> None:
        self.log = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                     text=True, cwd=self.cwd, **spawn_options(self.env))
        self.greeted, self.unread, self.pending = False, 0, b""

    def _start(self) -> None:
        if self.proc is None:
            self._spawn()
        hello = self._read_line(self.start_timeout)
        if not hello.get("ready"):
            error = hello.get("error", "no reply")
            self.close()
            raise WorkerDied(f"the {self.device} worker did not start: {error}")
        self.hello, self.greeted = hello, True

    def _read_line(self, timeout: float) -> dict:
        """The next reply line. Read from the pipe here, in chunks, keeping what follows the line: a reader's own
        buffer could hold a second reply (one sent ahead) that select() on the pipe would then wait for in vain."""
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.pending:
            if not select.select([fd], [], [], max(deadline - time.monotonic(), 0))[0]:
                self._kill()
                raise WorkerDied(f"timed out after {timeout:g} s{self._log_tail()}")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                code = self.proc.wait()
                self.proc, self.unread = None, 0
                raise WorkerDied(f"worker {describe_exit(code)}{self._log_tail()}")
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return json.loads(line)

    def _log_tail(self) -> str:
        try:
            self.log.seek(0)
            lines = [l.strip() for l in self.log.read().splitlines() if l.strip()]
        except (OSError, ValueError):
            return ""
        return f": {lines[-1][:300]}" if lines else ""

    def _kill(self) -> None:
        if self.proc is not None:
            kill_group(self.proc)
            self.proc, self.unread = None, 0

    def request(self, payload: dict, timeout: float) -> dict:
        """Send one request; WorkerDied if the worker crashes or does not answer within `timeout` seconds
        (the next request starts a fresh worker)."""
        if self.proc is None:
            if self.hello:
                self.restarts += 1
            self._start()
        elif not self.greeted:  # started by send_ahead
            self._start()
        while self.unread:  # replies to what was sent ahead
            self.unread -= 1
            self._read_line(self.start_timeout)
        self._write(payload)
        return self._read_line(timeout)

    def _write(self, payload: dict) -> bool:
        """One request line; False when the worker is gone (the next read reports how it died)."""
        try:
            self.proc.stdin.write(json.dumps(payload) + "\n")
            self.proc.stdin.flush()
            return True
        except BrokenPipeError:
            return False

    @property
    def stablehlo_version(self) -> str:
        return self.hello.get("stablehlo_version", "")

    def close(self) -> None:
        if self.proc is not None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self._kill()
            self.proc, self.unread = None, 0


_SHARED: dict = {}


def shared_client(device: str) -> WorkerClient:
    """The session's worker for `device`, started on first use and kept for the next run (a crashed one is
    restarted by its next request). Closed when the interpreter exits."""
    client = _SHARED.get(device)
    if client is None:
        client = _SHARED[device] = WorkerClient(device)
        atexit.register(client.close)
    return client


def close_shared() -> None:
    """Stop the session's workers (the next run starts fresh ones, with the environment as it is then)."""
    while _SHARED:
        _SHARED.popitem()[1].close()
