"""Starting a local web server ttbench shows the user (Model Explorer, netron): a child process running a launcher
script that holds to server_guard's rules, on 127.0.0.1, under a per-launch secret; its URL back within a deadline;
its error output kept in a file, where refused outbound connections show."""
from __future__ import annotations

import os
import secrets
import select
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from typing import Optional

from . import server_guard
from .children import kill_group, start
from .scratch import scratch_dir


class ServerProcess:
    """A launched server: `url` (with its secret), `stop()`, `refused()` (outbound connections it was refused)."""

    def __init__(self, process: subprocess.Popen, url: str, log_path: str):
        self.process, self.url, self.log_path = process, url, log_path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                kill_group(self.process)

    def refused(self) -> list:
        with open(self.log_path, errors="replace") as f:
            return [line.strip() for line in f if line.startswith(server_guard.REFUSED)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(launcher: str, args: list, port: int, health: str, what: str, timeout: float = 60.0,
                 folder: Optional[str] = None) -> ServerProcess:
    """Run `launcher` (Python source; argv: this folder, then `args`) and wait for its "URL <url>" line and for
    `health` (a path under the secret) to answer. `folder` holds its error log (a scratch folder if None)."""
    here = os.path.dirname(os.path.abspath(server_guard.__file__))  # the launcher imports server_guard from here
    secret = secrets.token_urlsafe(24)
    log_path = os.path.join(folder or scratch_dir("ttbench-server-"), "server.log")
    with open(log_path, "w") as log:
        process = start([sys.executable, "-c", launcher, here, *args],
                        env={**os.environ, server_guard.SECRET_ENV: secret},
                        stdout=subprocess.PIPE, stderr=log, text=True)
    deadline = time.monotonic() + timeout
    url = None
    while url is None and process.poll() is None:
        remaining = deadline - time.monotonic()
        # wait for a line with a deadline: a child that hangs before printing must not hang the caller
        if remaining <= 0 or not select.select([process.stdout], [], [], remaining)[0]:
            break
        line = process.stdout.readline()
        if line.startswith("URL "):
            url = line.split(" ", 1)[1].strip()
    if url is None:
        kill_group(process)
        raise RuntimeError(f"{what} did not start (see `ttbench doctor`; its log: {log_path})")
    # the server goes on printing; a pipe nobody reads would block it once full
    threading.Thread(target=process.stdout.read, name="ttbench-server-stdout", daemon=True).start()
    check = f"http://127.0.0.1:{port}/s/{secret}{health}"
    while True:
        try:
            urllib.request.urlopen(check, timeout=2).read()
            break
        except OSError:
            if time.monotonic() > deadline:
                kill_group(process)
                raise RuntimeError(f"{what} did not answer at 127.0.0.1:{port} (its log: {log_path})") from None
            time.sleep(0.3)
    return ServerProcess(process, url, log_path)
