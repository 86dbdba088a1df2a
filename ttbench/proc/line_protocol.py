"""The worker side of ttbench's one line protocol (the parent side is client.WorkerClient): a first line
{"ready": true, ...} or {"ready": false, "error": ...}; then one JSON request per line on stdin, one JSON reply per
line on stdout. A plain module with no imports from ttbench, like parent_watch.py, so the worker scripts run by path
(tt_worker.py) use the same code as the ones run as modules (run/worker.py, the conformance worker)."""
import json
import os
import sys
import traceback


def protocol_stream():
    """This process's real stdout, for replies only; fd 1 and sys.stdout now go to stderr, so whatever a compiler,
    a plugin or a model prints can never be taken for a reply."""
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return proto


def one_line(exc: BaseException, limit: int = 2000) -> str:
    return f"{type(exc).__name__}: {exc}".strip()[:limit]


def serve(start, handle, describe=one_line) -> int:
    """start() -> (the state requests need, the facts for the ready line); handle(state, request) -> reply. An
    exception in start is the ready line's error; one in handle is that request's error reply, said by
    describe(exc) (only native failures end the process, and the parent sees how)."""
    proto = protocol_stream()
    try:
        state, facts = start()
    except Exception as exc:  # noqa: BLE001 - told to the parent, which reports it
        proto.write(json.dumps({"ready": False, "error": describe(exc)[:1000]}) + "\n")
        return 1
    proto.write(json.dumps({"ready": True, **facts}) + "\n")
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            reply = handle(state, request)
        except Exception as exc:  # noqa: BLE001 - a Python-level failure is a reply
            reply = {"ok": False, "error": describe(exc), "traceback": traceback.format_exc(limit=-4)}
        proto.write(json.dumps(reply) + "\n")
    return 0
