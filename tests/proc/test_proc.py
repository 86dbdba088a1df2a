"""proc/: the one place children are started. What a user would notice: nothing of ours keeps running after a
deadline, and a child's output never blocks it."""
import os
import shutil
import subprocess
import sys
import time

import psutil
import pytest

from ttbench.proc.children import run_once

pytestmark = pytest.mark.subprocess  # children are the subject


def _gone(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.1)
    return False


def test_a_deadline_kills_the_child_and_everything_it_started(tmp_path):
    # A sweep job that hangs inside a TT compile: the job's own child (the compile worker) must go too; killing
    # only the job (what subprocess.run does on timeout) left the compile running, holding the plugin lock.
    marker = tmp_path / "grandchild.pid"
    code = ("import subprocess, sys, time\n"
            "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'])\n"
            f"open({str(marker)!r}, 'w').write(str(p.pid))\n"
            "time.sleep(120)\n")
    t0 = time.monotonic()
    done = run_once([sys.executable, "-c", code], timeout=3)
    assert done.timed_out and done.returncode == -9 and not done.ok
    assert time.monotonic() - t0 < 30
    assert _gone(int(marker.read_text())), "the child's own child outlived the deadline"


def test_a_chatty_child_does_not_block_and_its_output_comes_back():
    code = "import sys\nfor i in range(20000): print('x' * 100); print('e' * 100, file=sys.stderr)\nsys.exit(3)"
    done = run_once([sys.executable, "-c", code], timeout=60)
    assert not done.timed_out and done.returncode == 3 and not done.ok
    assert done.stdout.count("\n") == 20000 and done.stderr.count("\n") == 20000


def test_array_files_keep_every_element_type_bit_for_bit(tmp_path):
    import ml_dtypes
    import numpy as np

    from ttbench.proc.array_files import load_arrays, save_arrays

    bits = np.arange(256, dtype=np.uint8)
    arrays = [np.linspace(-3, 3, 7, dtype=np.float32), bits.view(ml_dtypes.float8_e4m3fn),
              bits.view(ml_dtypes.float8_e5m2), np.arange(0, 65536, 97, dtype=np.uint16).view(ml_dtypes.bfloat16),
              np.array([True, False])]
    save_arrays(tmp_path / "a.npz", arrays, "arg")
    back = load_arrays(tmp_path / "a.npz", "arg")
    assert [a.dtype for a in back] == [a.dtype for a in arrays]
    assert all(a.tobytes() == b.tobytes() for a, b in zip(arrays, back))  # NaN payloads included


def _dead_pid() -> int:
    import subprocess

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_cleanup_removes_only_what_ttbench_made_and_whose_process_is_gone(tmp_path):
    import ttbench as tb
    from ttbench.proc.scratch import MARKER

    pid = _dead_pid()
    backup = tmp_path / f".mlp.old-{pid}-backup"  # the user's, named like a leftover: it must survive
    backup.mkdir()
    (backup / "notes.txt").write_text("mine")
    leftover = tmp_path / f".mlp.tmp-{pid}-x1y2"  # an interrupted export of ttbench's (its marker names it)
    leftover.mkdir()
    (leftover / MARKER).write_text(str(pid))
    live = tmp_path / f".mlp.tmp-{os.getpid()}-x3y4"  # a live process's: never touched
    live.mkdir()
    (live / MARKER).write_text(str(os.getpid()))
    m, x = tb.models.load("mlp")
    out = tb.bringup(m, x, tt=False).export(str(tmp_path / "mlp"))
    assert (backup / "notes.txt").read_text() == "mine"
    assert not leftover.exists() and live.exists()
    assert MARKER not in os.listdir(out)  # the export folder is the user's, with nothing of ours inside


def test_a_killed_runs_folder_is_reclaimed_by_the_next_run(tmp_path):
    import tempfile

    import ttbench as tb
    from ttbench.proc.scratch import MARKER

    pid = _dead_pid()
    orphan = os.path.join(tempfile.gettempdir(), f"ttbench-run-{pid}-orphan")
    os.makedirs(orphan, exist_ok=True)
    with open(os.path.join(orphan, MARKER), "w") as f:
        f.write(str(pid))
    unmarked = os.path.join(tempfile.gettempdir(), f"ttbench-run-{pid}-unmarked")  # not provably ours: kept
    os.makedirs(unmarked, exist_ok=True)
    try:
        m, x = tb.models.load("mlp")
        assert tb.bringup(m, x, tt=False).run("stablehlo").ok
        assert not os.path.exists(orphan) and os.path.isdir(unmarked)
    finally:
        import shutil

        shutil.rmtree(orphan, ignore_errors=True)
        shutil.rmtree(unmarked, ignore_errors=True)


def test_a_servers_no_network_guard_refuses_outbound_connections_and_lookups():
    """proc/server_guard.no_network, as the graph servers' launchers install it: a connection or a DNS look-up off
    this machine fails at once and is logged; loopback still works."""
    from ttbench.proc import server_guard

    code = f"""
import socket, sys, urllib.request
sys.path.insert(0, {os.path.dirname(server_guard.__file__)!r})
from server_guard import no_network
listener = socket.socket(); listener.bind(("127.0.0.1", 0)); listener.listen()
no_network()
socket.create_connection(listener.getsockname(), timeout=5).close()
print("loopback ok")
for target in ("http://pypi.org/simple/", "http://192.0.2.77:80/"):
    try:
        urllib.request.urlopen(target, timeout=20)
    except OSError as exc:
        print("refused", target, type(getattr(exc, "reason", exc)).__name__)
"""
    t0 = time.monotonic()
    done = run_once([sys.executable, "-c", code], timeout=60)
    assert done.ok, done.stderr
    assert done.stdout.splitlines() == ["loopback ok", "refused http://pypi.org/simple/ PermissionError",
                                        "refused http://192.0.2.77:80/ PermissionError"]
    assert done.stderr.splitlines() == [f"{server_guard.REFUSED} to pypi.org", f"{server_guard.REFUSED} to 192.0.2.77"]
    assert time.monotonic() - t0 < 30


def test_work_in_a_fork_reports_a_crash_a_hang_and_an_exit_instead_of_dying_with_it():
    from ttbench.proc.fork_each import in_fork

    assert in_fork(lambda: None, 10) is None
    assert in_fork(os.abort, 10) == "crashed (SIGABRT)"  # torch-mlir aborts the process on some element types
    t0 = time.monotonic()
    assert in_fork(lambda: time.sleep(30), 0.5) == "timed out after 0.5 s"
    assert time.monotonic() - t0 < 10
    assert in_fork(lambda: sys.exit(3), 10) == "ended (exit 1)"  # an exception (SystemExit too) is not a clean end


ECHO_WORKER = """import json, sys
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    print(json.dumps({"echo": json.loads(line)["n"]}), flush=True)
"""


def test_replies_already_waiting_together_are_each_read_at_once():
    """A request sent ahead (op by op warms its worker so) and the worker's hello can sit in the pipe together:
    both must be read without waiting for more. The client once read them into its buffer in one go and then
    waited on the pipe for the second until its start timeout (a sweep job stalled two minutes per op by op)."""
    from ttbench.proc.client import WorkerClient

    with WorkerClient("echo", start_timeout=20, command=[sys.executable, "-c", ECHO_WORKER],
                      env=dict(os.environ)) as client:
        client.send_ahead({"n": 1})
        time.sleep(2)  # hello and the first reply both written by now
        t0 = time.perf_counter()
        assert client.request({"n": 2}, timeout=20) == {"echo": 2}
        assert time.perf_counter() - t0 < 5


IN_ANOTHER_PID_NAMESPACE = r'''
import os, sys, time
from ttbench.proc.scratch import temp_dir
dead_on_host = {int(p) for p in sys.argv[1].split(",")}
while True:  # fork until this namespace hands out a pid that names no process on the host
    child = os.fork()
    if child == 0:
        if os.getpid() in dead_on_host:
            print(temp_dir("ttbench-nstest-"), flush=True)
            time.sleep(60)
        os._exit(0)
    os.waitpid(child, 0)
    if child in dead_on_host:
        break  # found (and the test is over): forking on would spin until someone kills it
'''


@pytest.mark.skipif(not shutil.which("unshare"), reason="needs unshare")
def test_a_live_folder_made_in_another_pid_namespace_is_not_taken_for_an_orphan():
    """A private Ray cluster's tasks run in their own pid namespace (ray_cluster.NAMESPACES) and make their job
    folders in the same /tmp: a pid that is dead here may be alive there, so another ttbench on the machine must
    not reclaim the folder (it did: a concurrent tracker run removed a Ray sweep's row files mid-job)."""
    from ttbench.proc.scratch import remove_orphans

    dead = [str(p) for p in range(50, 2000) if not psutil.pid_exists(p)][:200]
    # --kill-child: killing unshare ends the namespace's first process, and so every process in it (a killed unshare
    # used to leave the forking script behind, spinning on a CPU long after the test)
    ns = subprocess.Popen(["unshare", "--user", "--map-root-user", "--pid", "--fork", "--kill-child", "--mount-proc",
                           sys.executable, "-c", IN_ANOTHER_PID_NAMESPACE, ",".join(dead)], stdout=subprocess.PIPE,
                          text=True)
    try:
        folder = ns.stdout.readline().strip()
        assert folder and os.path.isdir(folder), folder
        remove_orphans("ttbench-nstest-")
        assert os.path.isdir(folder), "a live job's folder in another pid namespace was removed"
    finally:
        ns.kill()
        ns.wait()
        if folder:
            shutil.rmtree(folder, ignore_errors=True)


def test_jobs_forked_from_a_zygote_end_as_fresh_processes_would(tmp_path, monkeypatch):
    """A tracker job forked from the run's zygote (no imports paid again) is still a process of its own: its
    environment, folder, output, exit code, crash and deadline are what `python -m` would give, a job's own child
    goes with it at the deadline, and a lost zygote costs only the speed (the job runs fresh)."""
    from ttbench.proc import zygote

    module = "tests.proc.zygote_job"
    env = {**os.environ, "ZYGOTE_TEST_VALUE": "given"}
    monkeypatch.chdir(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    with zygote.running(["json"]) as z:
        assert z is not None
        done = zygote.run_module(module, ["say", "3"], 60, env)
        assert (done.returncode, done.timed_out) == (3, False)
        assert done.stdout.split() == ["given", os.getcwd(), "['3']"] and done.stderr == "to stderr\n"
        assert zygote.run_module(module, ["crash"], 60, env).returncode == -6  # SIGABRT, as subprocess says
        raised = zygote.run_module(module, ["raise"], 60, env)
        assert raised.returncode == 1 and "ValueError: the job's own error" in raised.stderr
        marker = tmp_path / "grandchild.pid"
        t0 = time.monotonic()
        hung = zygote.run_module(module, ["hang", str(marker)], 3, env)
        assert hung.timed_out and hung.returncode == -9 and time.monotonic() - t0 < 30
        assert _gone(int(marker.read_text())), "the job's own child outlived the deadline"
        # a script by path (the tracker's bare route) as `python -I` runs it: in its folder, as __main__, with
        # neither the zygote's folder nor its own on the path (a module beside it must not shadow a package)
        script = tmp_path / "bare.py"
        script.write_text(f"import os, sys\nprint(__name__, os.getcwd(), os.getcwd() in sys.path, '' in sys.path,"
                          f" {os.getcwd()!r} in sys.path)\nsys.exit(4)\n")
        forked = zygote.run_path(str(script), 60, env)
        fresh = subprocess.run([sys.executable, "-I", str(script)], cwd=tmp_path, capture_output=True, text=True)
        assert (forked.returncode, forked.stdout) == (fresh.returncode, fresh.stdout) == (4, f"__main__ {tmp_path}"
                                                                                             " False False False\n")
        z.proc.kill()  # the zygote itself lost: the next job runs as a fresh process
        z.proc.wait()
        again = zygote.run_module(module, ["say", "0"], 60, env)
        assert again.returncode == 0 and again.stdout.split()[0] == "given"
    assert not zygote._current
