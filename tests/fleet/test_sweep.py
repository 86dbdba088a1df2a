"""The zoo sweep (issue 9): a status table from parallel workers, known failures in one list."""
import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

import ttbench as tb
from ttbench.fleet.sweep import KNOWN_FAILURES, classify, known_failures

pytestmark = pytest.mark.subprocess  # sweep jobs run in child processes


def test_zoo_has_ten_models_each_documented():
    names = tb.models.names()
    assert len(names) >= 10
    for name in names:
        assert tb.models.describe(name), f"models/{name}/README.md needs a line on source, licence and interest"


def test_sweep_writes_the_table_and_flags_known_failures_that_pass(tmp_path):
    known = tmp_path / "known.json"
    known.write_text(json.dumps({"mlp/dynamo": {"stage": "stablehlo", "reason": "pretend it fails"}}))
    r = subprocess.run([sys.executable, "-m", "ttbench.cli", "sweep", "--models", "mlp", "--frontends",
                        "export,dynamo", "--no-tt", "--jobs", "2", "--known", str(known), "--out", str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    data = json.loads((tmp_path / "status.json").read_text())
    rows = {(row["model"], row["frontend"]): row for row in data["rows"]}
    assert rows["mlp", "export"]["status"] == "pass" and rows["mlp", "export"]["pcc"] > 0.999
    assert rows["mlp", "dynamo"]["status"] == "known failure now passes"
    assert "mlp/dynamo is listed as a known failure but passes now" in r.stdout
    assert "| mlp | export | pass | stablehlo |" in (tmp_path / "status.md").read_text()
    assert "<table" in (tmp_path / "status.html").read_text()


def test_known_failure_list_is_the_one_the_tests_use():
    known = known_failures(KNOWN_FAILURES)
    assert "resnet18/dynamo" in known and all(v["reason"] and v["repro"] for v in known.values())
    assert classify({"model": "resnet18", "frontend": "dynamo", "failed_stage": "stablehlo"}, known) == \
        "known failure"
    assert classify({"model": "x", "frontend": "export", "failed_stage": "ttir"}, known) == "new failure"


LRN_LOADER = '''import torch


class LRN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(4, 4, 3)

    def forward(self, x):
        return torch.nn.functional.local_response_norm(torch.relu(self.conv(x)), 3)


def load():
    return LRN(), (torch.randn(1, 4, 8, 8),)
'''


def test_sweep_ops_writes_the_op_support_table(tmp_path):
    from ttbench import optional

    zoo = tmp_path / "zoo"
    (zoo / "lrn").mkdir(parents=True)
    (zoo / "lrn" / "loader.py").write_text(LRN_LOADER)
    (zoo / "mlp").mkdir()
    (zoo / "mlp" / "loader.py").write_text(open(os.path.join(tb.models.ZOO_DIR, "mlp", "loader.py")).read())
    out = tmp_path / "docs"
    tt = optional.tt_plugin().available
    r = subprocess.run([sys.executable, "-m", "ttbench.cli", "sweep", "--models", "lrn,mlp", "--frontends",
                        "export,onnx", "--no-run", "--ops", "--known", str(tmp_path / "none.json"), "--out",
                        str(out)] + ([] if tt else ["--no-tt"]), capture_output=True, text=True,
                       env={**os.environ, "TTBENCH_MODELS": str(zoo)})
    assert (out / "op_support.md").is_file(), r.stdout + r.stderr
    table = {e["op"]: e for e in json.loads((out / "op_support.json").read_text())["ops"]}
    assert table["aten.relu.default"]["models"] == ["lrn", "mlp"]
    assert table["onnx.Relu"]["models"] == ["lrn", "mlp"] and table["onnx.Relu"]["variants_through"] == 2
    assert all(e["occurrences"] >= e["variants"] >= 1 for e in table.values())
    if tt:  # the TT compiler refuses LRN's avg_pool3d; the table names it, the model and the line
        pool = table["aten.avg_pool3d.default"]
        assert pool["variants_through"] == 0 and pool["worst_stage"] == "stablehlo"
        assert pool["first_error"].startswith("lrn/export at loader.py:10: ") and "reduce_window" in pool["first_error"]
        md = (out / "op_support.md").read_text()
        assert md.index("aten.avg_pool3d.default") < md.index("aten.relu.default")  # failing ops first


TINY_LOADER = '''import torch


class Tiny(torch.nn.Module):
    def forward(self, x):
        y = x * 2
        {body}
        return y


def load():
    return Tiny(), (torch.randn(4),)
'''


def _sweep(zoo, out, db, label):
    return subprocess.run([sys.executable, "-m", "ttbench.cli", "sweep", "--models", "tiny,mlp", "--frontends",
                           "dynamo", "--no-tt", "--known", str(out.parent / "none.json"), "--out", str(out),
                           "--db", str(db), "--label", label], capture_output=True, text=True,
                          env={**os.environ, "TTBENCH_MODELS": str(zoo)})


def test_history_names_the_model_that_broke_between_two_sweeps(tmp_path):
    zoo, db = tmp_path / "zoo", tmp_path / "results.sqlite"
    (zoo / "tiny").mkdir(parents=True)
    (zoo / "mlp").mkdir()
    (zoo / "mlp" / "loader.py").write_text(open(os.path.join(tb.models.ZOO_DIR, "mlp", "loader.py")).read())
    (zoo / "tiny" / "loader.py").write_text(TINY_LOADER.format(body="y = y + x"))
    first = _sweep(zoo, tmp_path / "one", db, "v1")
    assert first.returncode == 0, first.stdout + first.stderr
    # the same model, now with an in-place add that dynamo leaves in the graph (the IR no longer verifies)
    (zoo / "tiny" / "loader.py").write_text(TINY_LOADER.format(body="y.add_(x)"))
    second = _sweep(zoo, tmp_path / "two", db, "v2")
    assert second.returncode == 1  # a new failure
    r = subprocess.run([sys.executable, "-m", "ttbench.cli", "history", "--db", str(db), "--html",
                        str(tmp_path / "history.html")], capture_output=True, text=True)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "REGRESSION: tiny/dynamo/args: newly failing: stablehlo" in r.stdout
    assert "REGRESSION: tiny/dynamo/args: furthest stage moved: stablehlo -> torchfx" in r.stdout
    assert "mlp/" not in r.stdout  # unchanged
    page = (tmp_path / "history.html").read_text()
    assert page.count("<img") == 2 and "newly failing" in page
    # history is kept: both runs are there, and each run's status table is a query over its own rows
    import sqlite3

    with sqlite3.connect(db) as con:
        assert con.execute("SELECT label FROM runs ORDER BY id").fetchall() == [("v1",), ("v2",)]
        assert con.execute("SELECT count(*) FROM jobs").fetchone() == (4,)
    assert "| tiny | dynamo | pass |" in (tmp_path / "one" / "status.md").read_text()
    assert "| tiny | dynamo | new failure |" in (tmp_path / "two" / "status.md").read_text()
    # comparing the named runs the other way round: the fix is no regression
    back = subprocess.run([sys.executable, "-m", "ttbench.cli", "history", "--db", str(db), "--before", "v2",
                           "--after", "v1"], capture_output=True, text=True)
    assert back.returncode == 0 and "newly passing" in back.stdout


def test_history_refuses_what_is_not_a_results_database(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("not a database, just text that is long enough to have a header" * 10)
    r = subprocess.run([sys.executable, "-m", "ttbench.cli", "history", "--db", str(bad)], capture_output=True,
                       text=True)
    assert r.returncode == 2 and "is not a ttbench results database" in r.stderr
    assert bad.read_text().startswith("not a database")  # untouched


def _two_model_zoo(tmp_path):
    zoo = tmp_path / "zoo"
    (zoo / "tiny").mkdir(parents=True)
    (zoo / "mlp").mkdir()
    (zoo / "mlp" / "loader.py").write_text(open(os.path.join(tb.models.ZOO_DIR, "mlp", "loader.py")).read())
    (zoo / "tiny" / "loader.py").write_text(TINY_LOADER.format(body="y = y + x"))
    return zoo


def _rows(out):
    kept = ("model", "frontend", "params", "status", "furthest", "failed_stage", "error", "ops", "pcc", "run_ok",
            "coverage", "embedded_bytes", "constant_bytes", "attempts")
    return [{k: r.get(k) for k in kept} for r in json.loads((out / "status.json").read_text())["rows"]]


def test_local_and_ray_engines_give_the_same_rows(tmp_path):
    pytest.importorskip("ray", reason="pip install 'ttbench[ray]'")
    zoo = _two_model_zoo(tmp_path)
    for engine in ("local", "ray"):
        r = subprocess.run([sys.executable, "-m", "ttbench.cli", "sweep", "--models", "tiny,mlp", "--frontends",
                            "export,onnx", "--no-tt", "--engine", engine, "--known", str(tmp_path / "none.json"),
                            "--out", str(tmp_path / engine)], capture_output=True, text=True,
                           env={**os.environ, "TTBENCH_MODELS": str(zoo)}, timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
    local, ray = _rows(tmp_path / "local"), _rows(tmp_path / "ray")
    assert len(local) == 4 and all(r["status"] == "pass" and r["pcc"] > 0.999 for r in local)
    assert local == ray


@pytest.mark.parametrize("engine", ["local", "ray"])
def test_a_killed_job_is_retried_once_then_reported(tmp_path, engine):
    if engine == "ray":
        pytest.importorskip("ray", reason="pip install 'ttbench[ray]'")
    zoo = _two_model_zoo(tmp_path)
    marker = tmp_path / "killed-once"
    faults = {"tiny": f"kill-once:tiny:{marker}", "mlp": "kill:mlp"}
    for model, fault in faults.items():
        out = tmp_path / model
        r = subprocess.run([sys.executable, "-m", "ttbench.cli", "sweep", "--models", model, "--frontends", "export",
                            "--no-tt", "--no-run", "--engine", engine, "--known", str(tmp_path / "none.json"),
                            "--out", str(out)], capture_output=True, text=True, timeout=600,
                           env={**os.environ, "TTBENCH_MODELS": str(zoo), "TTBENCH_SWEEP_FAULT": fault})
        row = _rows(out)[0]
        if model == "tiny":  # killed once: run again at once with ttbench's containment, which is the row
            assert r.returncode == 0 and row["status"] == "pass" and row["attempts"] == 1, (r.stdout, r.stderr)
            assert "killed by SIGKILL" in json.loads((out / "status.json").read_text())["rows"][0]["contained_rerun"]
        else:  # killed every time (contained or not): the engine's retry too, then reported, not lost
            assert row["attempts"] == 2, (r.stdout, r.stderr)
            assert r.returncode == 1 and row["status"] == "new failure" and "killed by SIGKILL" in row["error"]


def test_ctrl_c_stops_the_running_jobs_at_once_and_starts_no_more(tmp_path):
    """Ctrl-C on a long sweep or track run: the jobs that are running go too (each is a process of its own
    session, which the terminal's SIGINT never reaches), no further job starts, and the command exits 130 in
    seconds, not when the running jobs would have ended."""
    zoo = tmp_path / "zoo"
    for name in ("tiny", "tiny2", "tiny3"):
        (zoo / name).mkdir(parents=True)
        (zoo / name / "loader.py").write_text(TINY_LOADER.format(
            body=f"open({str(tmp_path / name)!r}, 'a').write(str(__import__('os').getpid()) + chr(10)); "
                 "__import__('time').sleep(600)"))
    sweep = subprocess.Popen([sys.executable, "-m", "ttbench.cli", "sweep", "--models", "tiny,tiny2,tiny3",
                              "--frontends", "export", "--no-tt", "--no-run", "--jobs", "2",
                              "--known", str(tmp_path / "none.json"), "--out", str(tmp_path / "out")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "TTBENCH_MODELS": str(zoo)})
    try:
        deadline = time.monotonic() + 300
        while not ((tmp_path / "tiny").exists() and (tmp_path / "tiny2").exists()) and time.monotonic() < deadline:
            time.sleep(0.2)
        jobs = [int(p.read_text().split()[0]) for p in (tmp_path / "tiny", tmp_path / "tiny2")]
        t0 = time.monotonic()
        sweep.send_signal(signal.SIGINT)
        _, err = sweep.communicate(timeout=60)
        assert time.monotonic() - t0 < 20, err
    finally:
        sweep.kill()
    assert sweep.returncode == 130 and "interrupted" in err, err
    assert not [pid for pid in jobs if _running(pid)], "a running job outlived the Ctrl-C"
    assert not (tmp_path / "tiny3").exists(), "a job started after the Ctrl-C"


def _running(pid: int) -> bool:
    """pid is a process that has not ended (a zombie has: it waits only for its new parent to reap it)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _sweep_one_tiny(tmp_path, body: str, run: bool = False) -> tuple:
    """`ttbench sweep` (export, no TT, no CPU run unless `run`) of a one-model zoo whose forward runs `body`: (the
    process, its row)."""
    zoo = tmp_path / "zoo"
    (zoo / "tiny").mkdir(parents=True)
    (zoo / "tiny" / "loader.py").write_text(TINY_LOADER.format(body=body))
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "-m", "ttbench.cli", "sweep", "--models", "tiny", "--frontends", "export",
                        "--no-tt", *([] if run else ["--no-run"]), "--known", str(tmp_path / "none.json"),
                        "--out", str(out)],
                       capture_output=True, text=True, timeout=600, env={**os.environ, "TTBENCH_MODELS": str(zoo)})
    return r, json.loads((out / "status.json").read_text())["rows"][0]


def test_a_job_is_its_own_container_and_a_crash_names_the_stage_it_reached(tmp_path):
    """Inside a sweep or tracker job the eager check runs in the job process, not in a fork of it (the job is
    the container, issue 43): a model that kills its process when run kills the job, and the row says where; run
    again with ttbench's containment, it is still a failure of that stage, said as the contained check says it."""
    r, row = _sweep_one_tiny(tmp_path, "import os, signal; os.kill(os.getpid(), signal.SIGKILL)")
    assert r.returncode == 1 and row["status"] == "new failure", (r.stdout, r.stderr)
    assert "killed by SIGKILL in fx without ttbench's containment" in row["contained_rerun"], row
    assert row["failed_stage"] == "fx" and "crashed (SIGKILL)" in row["error"], row


def test_a_job_forked_from_the_runs_zygote_gives_the_row_a_fresh_process_gives():
    """Local jobs fork from one zygote that imported torch, transformers and torch-mlir once (proc/zygote.py):
    the same job's row, numbers included, is the one a fresh `python -m` job writes."""
    from ttbench.fleet import sweep
    from ttbench.proc import zygote

    def facts(row):
        return {k: row.get(k) for k in ("furthest", "failed_stage", "error", "ops", "pcc", "stage_pcc", "coverage",
                                        "embedded_bytes", "constant_bytes")}

    fresh = sweep._child("hf/albert", "export", False, True, 600, programs=True)
    with zygote.running([f"{sweep.JOB_MODULE}:preload"]) as z:
        assert z is not None
        forked = sweep._child("hf/albert", "export", False, True, 600, programs=True)
    assert fresh["furthest"] == "stablehlo" and fresh["stage_pcc"]["stablehlo"] > 0.999, fresh
    assert facts(forked) == facts(fresh)


def test_a_model_that_raises_on_its_inputs_is_its_frontends_failure_not_a_dead_job(tmp_path):
    """In a notebook the eager check's refusal is bad input; in a job it is the row: the model's frontend failure,
    said as what the model raised (it read "job exited with code 1 in fx: ttbench.core.BadInput: ...")."""
    r, row = _sweep_one_tiny(tmp_path, "raise ValueError('no such input')")
    assert r.returncode == 1 and row["failed_stage"] == "fx", (r.stdout, r.stderr)
    assert row["error"].startswith("fx: the model did not run on its example inputs: the model raised ValueError: "
                                   "no such input"), row["error"]
    assert "job exited" not in row["error"] and "BadInput" not in row["error"]


@pytest.mark.parametrize("run", [False, True], ids=["compile only", "with the CPU run"])
def test_a_model_that_exports_but_cannot_run_eagerly_is_the_same_row_in_a_job(tmp_path, run):
    """A job does not run the model eagerly before its export (issue 43: the job process is the container, and
    the forward pass was work the bare route does not do); a model that traces but raises when run eagerly is
    still its frontend's failure, as where the check runs up front, not a pass or torch-mlir's wrong numbers."""
    r, row = _sweep_one_tiny(tmp_path, "if not torch.compiler.is_exporting(): raise ValueError('eager only')", run)
    assert r.returncode == 1 and row["failed_stage"] == "fx", (r.stdout, r.stderr, row)
    assert row["error"].startswith("fx: the model did not run on its example inputs: the model raised ValueError: "
                                   "eager only"), row["error"]


# --- Ray on a shared machine (issue 28, item 4) ---------------------------------------------------------------------

def _descendants(pid: int) -> set:
    """Every process below `pid` (from /proc's parent links), `pid` included while it lives."""
    children: dict = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        if os.path.exists(f"/proc/{p}"):
            found.add(p)
        todo += children.get(p, [])
    return found


def _listening(pid: int) -> list:
    """(address, port) of every listening TCP socket in `pid`'s network namespace (its /proc/PID/net/tcp{,6})."""
    out = []
    for name in ("tcp", "tcp6"):
        with open(f"/proc/{pid}/net/{name}") as f:
            for line in f.read().splitlines()[1:]:
                fields = line.split()
                if fields[3] == "0A":  # LISTEN
                    address, port = fields[1].split(":")
                    out.append((address, int(port, 16)))
    return out


LOOPBACK = {"0100007F", "0000000000000000FFFF00000100007F", "00000000000000000000000001000000"}  # 127.0.0.1, v4-mapped, ::1


def _ray_processes(pid: int) -> set:
    def command(p):
        try:
            with open(f"/proc/{p}/cmdline", "rb") as f:
                return f.read().decode(errors="replace")
        except OSError:
            return ""
    return {p for p in _descendants(pid) if "gcs_server" in command(p) or "raylet" in command(p)
            or command(p).startswith("ray::")}


@pytest.mark.skipif(not os.path.exists("/proc/self/net/tcp"), reason="reads sockets from /proc (Linux)")
def test_a_private_ray_cluster_listens_on_loopback_only_and_is_gone_after_it_ends():
    pytest.importorskip("ray", reason="pip install 'ttbench[ray]'")
    from ttbench.fleet import executors

    runner = executors.engine("ray", 1)
    try:
        host = runner._private.process.pid
        ray = _ray_processes(host)
        assert any("gcs_server" in open(f"/proc/{p}/cmdline").read() for p in ray), ray
        sockets = {s for p in ray for s in _listening(p)}
        assert sockets, "Ray's servers listen somewhere: the check must see them"
        assert all(address in LOOPBACK for address, _ in sockets), sockets
        # ... in a namespace of its own: none of them is in this machine's own socket table
        assert not {s for s in sockets} & set(_listening(os.getpid()))
        rows = runner.run([executors.Job(dict, ([("model", "x"), ("frontend", "export")],), 60)], lambda i, r: None)
        assert rows == [{"model": "x", "frontend": "export", "attempts": 1}]  # a job runs there
        everything = _descendants(host)
    finally:
        runner.close()
    time.sleep(1)
    assert not [p for p in everything if os.path.exists(f"/proc/{p}")]


@pytest.mark.skipif(not os.path.exists("/proc/self/net/tcp"), reason="reads processes from /proc (Linux)")
def test_no_ray_process_outlives_a_sigkilled_sweep(tmp_path):
    pytest.importorskip("ray", reason="pip install 'ttbench[ray]'")
    zoo = _two_model_zoo(tmp_path)
    sweep = subprocess.Popen([sys.executable, "-m", "ttbench.cli", "sweep", "--models", "tiny,mlp", "--frontends",
                              "export,onnx", "--no-tt", "--engine", "ray", "--known", str(tmp_path / "none.json"),
                              "--out", str(tmp_path / "out")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env={**os.environ, "TTBENCH_MODELS": str(zoo)})
    try:
        deadline = time.monotonic() + 120
        seen: set = set()
        while time.monotonic() < deadline and not any(open(f"/proc/{p}/cmdline", "rb").read().startswith(b"ray::")
                                                      for p in seen if os.path.exists(f"/proc/{p}")):
            seen |= _ray_processes(sweep.pid)
            time.sleep(0.2)
        seen |= _descendants(sweep.pid)
        assert any(os.path.exists(f"/proc/{p}") for p in _ray_processes(sweep.pid)), "the cluster never started"
    finally:
        sweep.kill()
        sweep.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and [p for p in seen if os.path.exists(f"/proc/{p}")]:
        time.sleep(0.3)
    left = [p for p in seen if os.path.exists(f"/proc/{p}")]
    assert not left, [open(f"/proc/{p}/cmdline", "rb").read()[:80] for p in left]


def test_ray_start_and_join_fail_in_one_line(tmp_path):
    pytest.importorskip("ray", reason="pip install 'ttbench[ray]'")
    zoo = _two_model_zoo(tmp_path)

    def sweep(*extra, env=None):
        return subprocess.run([sys.executable, "-m", "ttbench.cli", "sweep", "--models", "tiny", "--frontends",
                               "export", "--no-tt", "--no-run", "--engine", "ray", "--known",
                               str(tmp_path / "none.json"), "--out", str(tmp_path / "out"), *extra],
                              capture_output=True, text=True, timeout=300,
                              env={**os.environ, "TTBENCH_MODELS": str(zoo), **(env or {})})

    with socket.socket() as s:  # a port where nothing listens
        s.bind(("127.0.0.1", 0))
        free = s.getsockname()[1]
    for extra, env, code, says in [
            (("--address", f"127.0.0.1:{free}"), None, 2, f"nothing answers at Ray address 127.0.0.1:{free}"),
            (("--address", "somewhere"), None, 2, "is not HOST:PORT"),
            ((), {"TTBENCH_RAY_START_TIMEOUT": "soon"}, 2, "TTBENCH_RAY_START_TIMEOUT='soon' is not a number"),
            ((), {"TTBENCH_RAY_START_TIMEOUT": "0.5"}, 1, "did not start within 0.5 s (raise TTBENCH_RAY_START_TIMEOUT")]:
        t0 = time.monotonic()
        r = sweep(*extra, env=env)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == code and len(lines) == 1 and says in lines[0], (extra, env, r.stderr)
        assert time.monotonic() - t0 < 60
        assert not (tmp_path / "out" / "status.json").exists()


def test_an_exception_that_escapes_a_job_is_a_ttbench_error_not_the_stage_it_reached(tmp_path, monkeypatch):
    """A job's own code that raises (a ttbench bug: an exception no stage contained) is said as ttbench's internal
    error, never as a failure of the compiler whose stage the job had reached (it read "job exited with code 1 in
    torchfx: ..." and counted as a torch-mlir failure)."""
    from ttbench.fleet import sweep
    from ttbench.fleet.track import statuses

    monkeypatch.setenv("TTBENCH_SWEEP_FAULT", "raise:hf/albert:torchfx")
    row = sweep._child("hf/albert", "export", False, False, 600)
    assert row["failed_stage"] == "torchfx" and "internal error in ttbench" in row["error"], row
    assert "RuntimeError: planted" in row["error"], row
    assert statuses.job_status(row)[0] == statuses.TTBENCH_ERROR


def test_a_job_killed_while_a_program_runs_is_not_a_failure_of_the_compiler_that_made_it(monkeypatch):
    """A job the OOM killer ended while the StableHLO ran on the CPU, or while ttbench's interpreter ran the TTIR
    program (hf/pe_video took 19 GB there), was counted as a TT compiler failure: the stage after the furthest one
    it made. The compile had succeeded; the run of its program died."""
    from ttbench.fleet import sweep
    from ttbench.fleet.track import statuses

    monkeypatch.setenv("TTBENCH_SWEEP_FAULT", "kill-at:hf/albert:run stablehlo")
    row = sweep._child("hf/albert", "export", False, True, 600)
    assert row["furthest"] == "stablehlo" and row["died_in"] == "run stablehlo", row
    status, detail = statuses.job_status(row)
    assert status == statuses.TORCH_MLIR and detail.startswith("StableHLO on the CPU: job killed by SIGKILL"), row
    in_the_interpreter = {**row, "furthest": "ttnn", "died_in": "run ttir",
                          "error": "job killed by SIGKILL in run ttir: "}
    status, detail = statuses.job_status(in_the_interpreter)
    assert status == statuses.TTBENCH_ERROR and "ttbench's interpreter ran the TTIR program" in detail
    stored_before = {k: v for k, v in in_the_interpreter.items() if k != "died_in"}  # its error says where
    assert statuses.job_status(stored_before)[0] == statuses.TTBENCH_ERROR
    compiling = {**row, "furthest": "ttir", "died_in": "ttnn", "failed_stage": "ttnn", "error": "job killed ..."}
    assert statuses.job_status(compiling)[0] == statuses.TT_COMPILER
