"""Netron for the ONNX stage: served on 127.0.0.1 only, shown in an IFrame, no browser launched."""
from __future__ import annotations

import os
import socket

from .. import optional
from ..core import BadInput
from ..proc.scratch import scratch_dir

_SERVED: list = []


def show(stage, port: int = 0, height: int = 600):
    """Serve the stage's ONNX model with netron; returns an IPython IFrame (or the URL without IPython)."""
    piece = optional.netron()
    if not piece.available:
        raise BadInput(f"netron is not installed: {piece.hint}")
    if stage.name != "onnx" or stage.module is None:
        raise BadInput("netron shows the onnx stage (bring the model up with frontend='onnx')")
    import netron

    path = os.path.join(scratch_dir("ttbench-netron-"), "model.onnx")
    with open(path, "wb") as f:
        f.write(stage.module.SerializeToString())
    address = netron.start(path, address=("127.0.0.1", port or _free_port()), browse=False)
    _SERVED.append(address)
    url = f"http://{address[0]}:{address[1]}/"
    try:
        from IPython.display import IFrame

        return IFrame(url, width="100%", height=height)
    except ImportError:
        return url


def stop() -> None:
    """Stop every netron server ttbench started."""
    import netron

    while _SERVED:
        netron.stop(_SERVED.pop())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
