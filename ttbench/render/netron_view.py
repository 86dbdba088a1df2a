"""Netron for the ONNX stage: served on 127.0.0.1 by a child process under a per-launch secret, with no outbound
connection from the server or the page (proc/server_guard.py), shown in an IFrame, no browser launched.

Netron's own `netron.start` would serve in a thread of the user's process, configure the user's root logger, answer
anyone on the machine, and its page reports usage to Google Analytics."""
from __future__ import annotations

import os
import socket

from .. import optional
from ..core import BadInput, StageName
from ..proc.scratch import scratch_dir
from ..proc.servers import start_server
from .served_frame import ServedFrame

_SERVED: list = []
_LAUNCH = r"""
import sys
sys.path.insert(0, sys.argv[1])
from parent_watch import watch_parent  # gone with the process that started it
watch_parent()
from server_guard import CONTENT_POLICY, PORT_TAKEN, STORAGE_SHIM_JS, Guard, no_network, requested_port
no_network()
import logging
import time
import netron
from netron import server
model_path, port = sys.argv[2], requested_port()
guard = Guard(port)
Handler = server._HTTPRequestHandler
serve_get = Handler.do_GET
send_headers = Handler.end_headers


def guarded_get(self):
    proof = guard.identity_answer(self.path, self.headers.get("Host"))
    if proof is not None:
        self._write(200, "text/plain", proof.encode())
        return
    had_secret = guard.under_secret(self.path)
    if not guard.allowed(self.headers.get("Host"), self.headers.get("Origin"), self.headers.get("Referer"),
                         had_secret):
        self.send_response(403)  # not send_error: netron's log_message breaks on its arguments
        self.send_header("Content-Length", "0")
        self.end_headers()
        return
    if had_secret:
        self.path = guard.strip(self.path)
    if self.path == "/" + SHIM:
        self._write(200, "text/javascript", (STORAGE_SHIM_JS + CONSENT_JS).encode())
        return
    serve_get(self)


# In another site's IFrame (JupyterLab) a browser that blocks third-party cookies drops the consent cookie below,
# and netron's page then waits on its consent dialog instead of drawing. The script, run before netron's own (its
# page allows scripts from its own server only), shows the page the consent as the cookie would have; the usage
# reports stay refused by the policy either way.
SHIM = "ttbench-shim.js"
CONSENT_JS = ("(function(){const d=Object.getOwnPropertyDescriptor(Document.prototype,'cookie');"
              "Object.defineProperty(document,'cookie',{configurable:true,get(){let c='';try{c=d.get.call(document)}"
              "catch(e){}return /(^|; *)consent=/.test(c)?c:(c?c+'; ':'')+'consent=1'},"
              "set(v){try{d.set.call(document,v)}catch(e){}}})})();")
write = Handler._write


def write_with_shim(self, status_code, content_type, content):
    if content_type and content_type.startswith("text/html") and content:
        own = b'<script type="text/javascript" src="index.js">'
        content = content.replace(own, f'<script src="{SHIM}"></script>'.encode() + own, 1)
    write(self, status_code, content_type, content)


def with_policy(self):
    self.send_header("Content-Security-Policy", CONTENT_POLICY)
    # netron's page asks for consent to its usage reports before it draws; the policy above stops them being sent
    self.send_header("Set-Cookie", f"consent={int(time.time() * 1000)}; Path=/; SameSite=Lax")
    send_headers(self)


Handler.do_GET = guarded_get  # this process is ttbench's own launcher: only netron's server runs here
Handler._write = write_with_shim
Handler.end_headers = with_policy
logging.basicConfig(level=logging.WARNING)  # netron logs each request at INFO otherwise
try:
    netron.serve(model_path, None, address=("127.0.0.1", port), browse=False)  # bound before the URL is printed
except OSError as exc:
    print(PORT_TAKEN, flush=True)
    sys.exit(f"ttbench: netron cannot listen on that port: {exc}")
print("URL", f"http://127.0.0.1:{port}{guard.prefix}/", flush=True)
while True:
    time.sleep(3600)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def show(stage, port: int = 0, height: int = 600) -> ServedFrame:
    """Serve the stage's ONNX model with netron; shown as an IFrame in a notebook (`.url` has the address)."""
    piece = optional.netron()
    if not piece.available:
        raise BadInput(f"netron is not installed: {piece.hint}")
    if stage.name != StageName.ONNX or stage.module is None:
        raise BadInput("netron shows the onnx stage (bring the model up with frontend='onnx')")
    folder = scratch_dir("ttbench-netron-")
    path = os.path.join(folder, "model.onnx")
    with open(path, "wb") as f:
        f.write(stage.module.SerializeToString())
    port = port or free_port()  # netron binds the port it is given, before its URL is printed
    server = ServedFrame("netron", start_server(_LAUNCH, [path], port, "/", "netron", folder=folder), height)
    _SERVED.append(server)
    return server


def stop() -> None:
    """Stop every netron server ttbench started."""
    while _SERVED:
        _SERVED.pop().stop()
