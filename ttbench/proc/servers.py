"""Starting a local web server ttbench shows the user (Model Explorer, netron): a child process running a launcher
script that holds to server_guard's rules, on 127.0.0.1, under a per-launch secret; its URL back within a deadline;
its error output kept in a file, where refused outbound connections show."""
from __future__ import annotations

import hmac
import os
import secrets
import select
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Optional

from ..core import BadInput, ServiceFailed
from . import server_guard
from .children import kill_group, start
from .scratch import scratch_dir


# Requests to the server ttbench started go straight to it: an http_proxy in the environment would otherwise
# receive them, the launch secret included.
_LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}))


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


def start_server(launcher: str, args: list, port: int, health: str, what: str, timeout: float = 60.0,
                 folder: Optional[str] = None) -> ServerProcess:
    """Run `launcher` (Python source; argv: this folder, then `args`) and wait for its "URL <url>" line (printed
    once its socket is bound), for its proof that it is the process started here, then for `health` (a path under
    the secret) to answer. `port`: 0 lets the server pick. The port, secret and proof go in the child's
    environment, which other users cannot read. `folder` holds its error log (a scratch folder if None)."""
    here = os.path.dirname(os.path.abspath(server_guard.__file__))  # the launcher imports server_guard from here
    secret, proof = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    log_path = os.path.join(folder or scratch_dir("ttbench-server-"), "server.log")
    with open(log_path, "w") as log:
        process = start([sys.executable, "-c", launcher, here, *args],
                        env={**os.environ, server_guard.SECRET_ENV: secret, server_guard.PROOF_ENV: proof,
                             server_guard.PORT_ENV: str(port)},
                        stdout=subprocess.PIPE, stderr=log, text=True)
    deadline = time.monotonic() + timeout
    url, busy = None, False
    while url is None and process.poll() is None:
        remaining = deadline - time.monotonic()
        # wait for a line with a deadline: a child that hangs before printing must not hang the caller
        if remaining <= 0 or not select.select([process.stdout], [], [], remaining)[0]:
            break
        line = process.stdout.readline()
        if line.startswith("URL "):
            url = line.split(" ", 1)[1].strip()
        busy = busy or line.startswith(server_guard.PORT_TAKEN)
    if url is None:
        kill_group(process)
        if busy:
            raise BadInput(f"port {port} is taken by another process: give another port, or none (0: a free one)")
        raise ServiceFailed(f"{what} did not start (see `ttbench doctor`; its log: {log_path})")
    # the server goes on printing; a pipe nobody reads would block it once full
    threading.Thread(target=process.stdout.read, name="ttbench-server-stdout", daemon=True).start()
    port = urllib.parse.urlsplit(url).port or 0
    _prove(process, port, proof, deadline, what, log_path)  # before the secret goes to whoever answers there
    check = f"http://127.0.0.1:{port}/s/{secret}{health}"
    while True:
        try:
            _LOCAL.open(check, timeout=2).read()
            break
        except OSError:
            if time.monotonic() > deadline:
                kill_group(process)
                raise ServiceFailed(f"{what} did not answer at 127.0.0.1:{port} (its log: {log_path})") from None
            time.sleep(0.3)
    return ServerProcess(process, url, log_path)


def _prove(process, port: int, proof: str, deadline: float, what: str, log_path: str) -> None:
    """Whoever answers at 127.0.0.1:`port` knows the proof handed to the process started here (another local user
    bound the port first: its page would be shown, and the secret sent to it)."""
    nonce = secrets.token_hex(16)
    while True:
        try:
            with _LOCAL.open(f"http://127.0.0.1:{port}{server_guard.IDENTITY_PATH}?n={nonce}", timeout=2) as reply:
                answer = reply.read(200).decode("ascii", "replace")
            if hmac.compare_digest(answer, server_guard.identity(proof, nonce)):
                return
            break
        except urllib.error.HTTPError:
            break  # something answers there, and not with the proof
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                break
            time.sleep(0.3)
    kill_group(process)
    raise ServiceFailed(f"{what}: whatever answers at 127.0.0.1:{port} is not the server ttbench started (another "
                       f"process holds the port?); stopped it, nothing was shown (its log: {log_path})")
