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


def forking_server_replies() -> int:
    """For a server that forks its jobs (proc/zygote.py): a descriptor of the real stdout, for replies only; fd 1
    now goes to /dev/null, so neither the server nor a job it forks can write into the replies."""
    replies = os.dup(1)
    quiet = os.open(os.devnull, os.O_RDWR)
    os.dup2(quiet, 1)
    os.close(quiet)
    return replies


def forked_job_stdio(out_path: str, err_path: str) -> None:
    """In a job forked from such a server: no stdin, stdout and stderr into these files (what a fresh process's
    would be captured into)."""
    quiet = os.open(os.devnull, os.O_RDONLY)
    os.dup2(quiet, 0)
    os.close(quiet)
    for fd, path in ((1, out_path), (2, err_path)):
        opened = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(opened, fd)
        os.close(opened)


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
