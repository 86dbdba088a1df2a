"""The model tracker (issue 31, items 2-4): jobs through the sweep into the results database, failures triaged
against the bare route (ours / upstream), grouped, one reproduction each, checked in a fresh process."""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time

import pytest
import torch

import ttbench as tb
from ttbench.fleet import results_db, track
from ttbench.fleet.track import page, scripts, triage
from tests.cli_runner import run_cli

pytestmark = pytest.mark.subprocess


@pytest.fixture(scope="module")
def tracked(tmp_path_factory):
    """One tracker run on two architectures: hf/gpt2 fails in torch.export's decompositions (upstream: the bare
    route fails the same way), hf/bert gets a ttbench-side failure planted (ttbench's StableHLO lowering hangs in
    the job, which is given up after 45 s; the bare route has no such fault)."""
    root = tmp_path_factory.mktemp("track")
    db = str(root / "results.sqlite")
    old = os.environ.copy()
    os.environ.update(TTBENCH_MLIR_WORKER_FAULT="hang:StableHLO")
    try:
        result = track.track(["gpt2", "bert"], ("export",), onnx_sample=0, tt=False, jobs=2,
                             repro_root=str(root / "repros"), db_path=db, timeout=45)
    finally:
        os.environ.clear()
        os.environ.update(old)
    return result, root, db


def test_triage_says_ours_for_a_planted_ttbench_failure_and_upstream_for_torch_exports(tracked):
    result, root, _ = tracked
    by_model = {r["model"]: r for r in result.rows}
    assert by_model["hf/bert"]["failed_stage"] == "stablehlo", by_model["hf/bert"]  # from the dead job's marker
    assert "timed out after 45 s in stablehlo" in by_model["hf/bert"]["error"]
    assert by_model["hf/bert"]["verdict"] == "ours", by_model["hf/bert"]["why"]
    assert by_model["hf/bert"]["bare"]["passed"] is True
    assert by_model["hf/gpt2"]["failed_stage"] == "fx"
    assert by_model["hf/gpt2"]["verdict"] == "upstream", by_model["hf/gpt2"]["why"]
    assert "same message" in by_model["hf/gpt2"]["why"]
    upstream = next(g for g in result.groups if g.verdict == "upstream")
    assert upstream.jobs == ["hf/gpt2/export"] and upstream.reproduces is True, upstream
    script = root / "repros" / upstream.repro / "model.py"
    code = script.read_text()
    assert "import ttbench" not in code and "from ttbench" not in code  # upstream packages only


def test_a_model_ttbench_cannot_build_is_triaged_without_a_bare_route_not_the_end_of_the_triage(tmp_path):
    """A row whose model did not build (836-job run: hf/autoformer's default config has no context_length) has no
    bare script (the script is written from the built model's inputs): its verdict is unknown, and the triage goes
    on (the loader's exception ended the whole triage); ttbench's own error while building is ours."""
    rows = [{"model": "hf/no_such_architecture", "frontend": "export", "failed_stage": "fx",
             "error": "fx: the model did not build: BadInput: no such architecture"},
            {"model": "timm/no_such_family", "frontend": "export", "failed_stage": "fx",
             "error": "fx: the model did not build: BadInput: no such family"},
            {"model": "hf/oneformer", "frontend": "export", "failed_stage": "fx",
             "error": "fx: internal error in ttbench while building the model: TypeError: unhashable type: 'list'"}]
    from ttbench.fleet.track import tracker

    groups = tracker.triage_rows(rows, 2, False, str(tmp_path / "repros"))
    assert [r["verdict"] for r in rows] == ["unknown", "unknown", "ours"], [r["why"] for r in rows]
    assert rows[0]["why"] == "no bare route for hf/no_such_architecture/export" and rows[0]["bare"] is None
    assert sum(len(g.jobs) for g in groups) == 3


def test_the_status_page_shows_each_architecture_and_group_and_the_run_is_in_the_database(tracked, tmp_path):
    result, _, db = tracked
    paths = page.write(result, str(tmp_path))
    text = (tmp_path / "status.md").read_text()
    assert "| [hf/gpt2](jobs/hf_gpt2.sh) | frontend failure | - |" in text, text
    assert "| [hf/bert](jobs/hf_bert.sh) | torch-mlir failure | torchfx |" in text
    assert "upstream" in text and "ours" in text and "## Projection" in text
    data = json.loads((tmp_path / "status.json").read_text())
    assert data["counts"]["verdicts"] == {"upstream": 1, "ours": 1}
    for name in ("status.md", "status.json", "status.html"):  # no machine paths on a committed page
        assert os.getcwd() not in (tmp_path / name).read_text(), name
    assert len(paths) == 4 and sorted(os.listdir(tmp_path / "jobs")) == ["hf_bert.sh", "hf_gpt2.sh"]
    with results_db.readable(db):
        conn = results_db.connect(db)
        kinds = [results_db.describe_run(conn, i)["kind"] for i in results_db.run_ids(conn)]
    assert kinds == ["track"]
    assert "no history" in result.history  # the first track run: nothing before it


def test_status_md_and_status_html_show_the_same_tables_and_links(tracked, tmp_path):
    """The page was written twice (markdown in fleet/, HTML in render/) with different columns; one page model
    (page.status_page) is now written in both formats."""
    page.write(tracked[0], str(tmp_path))
    md, html = (tmp_path / "status.md").read_text(), (tmp_path / "status.html").read_text()
    md_headers = [[c.strip() for c in line.strip("|").split("|")] for line, below in zip(md.splitlines(),
                  md.splitlines()[1:]) if line.startswith("| ") and below.startswith("|---")]
    html_headers = [re.findall(r"<th>(.*?)</th>", head) for head in re.findall(r"<thead>(.*?)</thead>", html)]
    assert md_headers == html_headers and len(md_headers) == 3, (md_headers, html_headers)
    md_links = re.findall(r"\]\(((?:repros|jobs)/[^)]+)\)", md)
    assert md_links and md_links == re.findall(r"href='((?:repros|jobs)/[^']+)'", html)
    assert {link.split("/")[0] for link in md_links} == {"repros", "jobs"}


def test_each_architecture_links_to_commands_that_bring_its_jobs_up_and_write_every_stage(tracked, tmp_path):
    """Every row, passing or not, opens its jobs' commands (jobs/ARCH.sh); run, they write the stage files."""
    result = tracked[0]
    page.write(result, str(tmp_path / "page"))
    html = (tmp_path / "page" / "status.html").read_text()
    assert "<a href='jobs/hf_bert.sh'>hf/bert</a>" in html
    script = tmp_path / "page" / "jobs" / "hf_bert.sh"
    commands = [line for line in script.read_text().splitlines() if not line.startswith("#")]
    assert commands == ["ttbench bringup hf/bert --frontend export --out hf_bert-export --no-tt --run cpu"]
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    done = subprocess.run(["sh", str(script)], cwd=work, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr  # the planted fault was the tracker's alone
    stages = json.loads((work / "hf_bert-export" / "manifest.json").read_text())["stages"]
    assert stages["stablehlo"]["ok"] and "stablehlo." in (work / "hf_bert-export" / "stablehlo.mlir").read_text()
    # a later page with fewer architectures replaces the folder whole: no script of an architecture gone
    fewer = type(result)(**{**result.__dict__, "rows": [r for r in result.rows if r["model"] == "hf/gpt2"]})
    page.write(fewer, str(tmp_path / "page"))
    assert os.listdir(tmp_path / "page" / "jobs") == ["hf_gpt2.sh"]


def test_the_minimal_repro_of_a_torch_mlir_limit_fails_alone_with_the_same_message(tmp_path):
    class Median(torch.nn.Module):
        def forward(self, x):
            return torch.median(x * 2, -1)[0]

    b = tb.bringup(Median(), torch.randn(3, 4, 4), tt=False, progress=False)
    failed = b.failed_stage
    assert failed is not None and failed.name == "stablehlo", b.table()
    found = triage.op_repro(b, "stablehlo", failed.error, str(tmp_path))
    assert found is not None and found["op"] == "aten.median.dim", found
    script = (tmp_path / "repro.py").read_text()
    assert "import ttbench" not in script and "torch.ops.aten.median.dim(a0, -1" in script
    run = triage.run_script(str(tmp_path / "repro.py"), 300, tt=False)  # a fresh interpreter: torch + torch-mlir
    assert run.reached == "stablehlo" and not run.passed, run
    assert triage.same_failure(run, "stablehlo", failed.error), (run.error, failed.error)
    row = {"model": "median", "frontend": "export", "failed_stage": "stablehlo", "error": failed.error}
    assert triage.verdict(row, run)[0] == "upstream"


def test_the_op_search_behind_a_torch_mlir_repro_lowers_every_op_and_runs_none():
    # Running every op on the CPU is what an op-level repro of a lowering failure never needed (a quarter of
    # hf/afmoe's op search, more where the activations are large).
    from ttbench.run.op_by_op import LOWERED_ONLY, op_by_op

    class Median(torch.nn.Module):
        def forward(self, x):
            return torch.median(x * 2, -1)[0]

    b = tb.bringup(Median(), torch.randn(3, 4, 4), tt=False, progress=False)
    rows = {r.op: r for r in op_by_op(b, device="cpu", progress=False, lower_only=True).rows}
    assert rows["aten.mul.Tensor"].ok and rows["aten.mul.Tensor"].note == LOWERED_ONLY
    assert rows["aten.mul.Tensor"].pcc is None and rows["aten.mul.Tensor"].furthest_stage == "stablehlo"
    assert not rows["aten.median.dim"].ok and rows["aten.median.dim"].furthest_stage == "torchfx"


def test_bad_tracker_input_is_one_line_before_any_work(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "out" / "repros").symlink_to(tmp_path / "elsewhere")  # the old repros are removed: not through this
    for args, needle in ((["--arch", "no_such_arch"], "unknown transformers architecture"),
                         (["--arch", "bert", "--frontends", "tflite"], "runs the frontends"),
                         (["--arch", "bert", "--onnx-sample", "-1"], "--onnx-sample"),
                         (["--arch", "bert", "--update-known"], "--update-known needs --out"),
                         (["--arch", "bert", "--opt-level", "2", "--no-tt"], "--opt-level compiles each job again"),
                         (["--arch", "bert", "--out", str(tmp_path / "out")], "is a symlink")):
        done = run_cli("track", *args)
        assert done.returncode == 2, done.stderr
        assert needle in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_the_tracker_runs_its_jobs_on_ray_too(tmp_path):
    pytest.importorskip("ray", reason="pip install 'ttbench[ray]'")
    out = tmp_path / "out"
    done = run_cli("track", "--arch", "bert", "--frontends", "export", "--no-tt", "--no-triage", "--engine", "ray",
                   "--jobs", "1", "--out", str(out), "--db", str(tmp_path / "results.sqlite"))
    assert done.returncode == 0, done.stderr[-3000:]
    (row,) = json.loads((out / "status.json").read_text())["rows"]
    assert row["model"] == "hf/bert" and row["furthest"] == "stablehlo" and row["stage_pcc"]["stablehlo"] > 0.999
    assert "| [hf/bert](jobs/hf_bert.sh) | passed | stablehlo |" in (out / "status.md").read_text()


def test_an_op_script_of_several_inputs_and_a_transposed_one_runs_through_torch_mlir(tmp_path):
    # what a reproduction of an op that does *not* fail looks like: it runs to its end (exit 0)
    class M(torch.nn.Module):
        def forward(self, x, y):
            return torch.ops.aten.add.Tensor(x.t(), y, alpha=2)

    b = tb.bringup(M(), (torch.randn(3, 4), torch.randn(4, 3)), tt=False, progress=False)
    node = next(n for n in b.fx_graph.graph.nodes if n.op == "call_function" and "add" in str(n.target))
    text = scripts.op_script(node, "stablehlo", "(none)", {"torch": torch.__version__})
    assert "torch.ops.aten.add.Tensor(a0, a1, alpha=2)" in text
    assert "a0 = torch.randn((12,), dtype=torch.float32).as_strided((4, 3), (1, 4))" in text  # x.t()'s strides kept
    path = tmp_path / "repro.py"
    path.write_text(text)
    run = triage.run_script(str(path), 300, tt=False)
    assert run.passed and run.reached == "stablehlo", run


def test_a_script_given_by_a_relative_path_runs(tmp_path, monkeypatch):
    # `make track` writes under docs/track: the reproductions' paths are relative to where ttbench runs
    (tmp_path / "repros").mkdir()
    (tmp_path / "repros" / "repro.py").write_text('print("stage torchfx")\nraise ValueError("the same message")\n')
    monkeypatch.chdir(tmp_path)
    run = triage.run_script(os.path.join("repros", "repro.py"), 60, tt=False)
    assert run.reached == "torchfx" and run.error == "ValueError: the same message", run


def test_a_stored_track_run_is_triaged_again_without_running_its_jobs(tracked, tmp_path):
    first, _, db = tracked
    again = track.track(from_run=str(first.run_id), db_path=db, tt=False, repro_root=str(tmp_path / "repros"))
    assert again.seconds is None and again.run_id == first.run_id
    assert {r["model"]: r.get("verdict") for r in again.rows} == {r["model"]: r.get("verdict") for r in first.rows}
    assert "triaged again" in page.markdown(again)
    done = run_cli("track", "--from-run", "999", "--db", db)
    assert done.returncode == 2 and "no run 999" in done.stderr, done.stderr


def test_a_stored_runs_page_alone_counts_its_failures_and_says_when_the_run_stopped_part_way(tracked, tmp_path):
    # `--no-triage` (or `--from-run N --no-triage`: a stored run's page alone) used to print "Failures: none"
    first, _, db = tracked
    out = tmp_path / "page"
    done = run_cli("track", "--from-run", str(first.run_id), "--no-triage", "--db", db, "--out", str(out),
                   "--expected", str(tmp_path / "expected.json"))
    assert done.returncode == 0, done.stderr
    text = (out / "status.md").read_text()
    assert "Failures: 2 jobs, not triaged (--no-triage)" in text and "Failures: none" not in text, text[:2000]
    assert "its page written again" in text and "Triage " not in text
    assert json.loads((out / "status.json").read_text())["triage_seconds"] is None
    # a run that stopped part way (a reboot, Ctrl-C) still gives the page of the jobs it finished, and says so
    stopped = str(tmp_path / "stopped.sqlite")
    shutil.copy(db, stopped)
    with sqlite3.connect(stopped) as con:
        con.execute("UPDATE runs SET complete = 0 WHERE id = ?", (first.run_id,))
    done = run_cli("track", "--from-run", str(first.run_id), "--no-triage", "--db", stopped, "--out", str(out),
                   "--expected", str(tmp_path / "expected.json"))
    assert done.returncode == 0, done.stderr
    assert f"2 jobs of track run {first.run_id}, which stopped part way" in (out / "status.md").read_text()


@pytest.mark.tt  # the Tenstorrent compiler is the subject
def test_a_tenstorrent_stage_repro_is_the_ops_stablehlo_and_the_plugin_lines(tmp_path, monkeypatch):
    # A planted failure (ttbench's compile worker aborts on the sine op; no TT-stage failure is known upstream):
    # the op is found op by op through the plugin, its StableHLO written beside a script that hands it to the plugin
    # alone; run fresh, that script compiles (the plugin itself has no such fault), so the failure does not reproduce.
    from ttbench import optional

    if not optional.tt_plugin().available:
        pytest.skip(optional.TT_HINT)

    class Sine(torch.nn.Module):
        def forward(self, x):
            return torch.sin(x) + x

    b = tb.bringup(Sine(), torch.randn(3, 4), tt=False, progress=False)
    monkeypatch.setenv("TTBENCH_TT_WORKER_FAULT", "abort:stablehlo.sine")
    found = triage.op_repro(b, "ttnn", "planted", str(tmp_path))
    monkeypatch.delenv("TTBENCH_TT_WORKER_FAULT")
    assert found is not None and found["op"] == "aten.sin.default", found
    assert "stablehlo.sine" in (tmp_path / "op.stablehlo.mlir").read_text()
    script = (tmp_path / "repro.py").read_text()
    assert "op.stablehlo.mlir" in script and "import ttbench" not in script
    run = triage.run_script(str(tmp_path / "repro.py"), 300, tt=True)
    assert run.reached == "tt" and run.passed, run
    assert not triage.same_failure(run, "ttnn", found["error"])


def test_the_dynamo_frontend_runs_on_the_same_sample_as_onnx_when_asked_for():
    from ttbench.fleet.track import tracker
    from ttbench import hf_zoo

    archs = sorted(hf_zoo.architectures())[:8]
    pairs = tracker.plan(archs, ("export", "onnx", "dynamo"), onnx_sample=3)
    by_frontend = {f: [m for m, g in pairs if g == f] for f in ("export", "onnx", "dynamo")}
    assert len(by_frontend["export"]) == 8 and len(by_frontend["dynamo"]) == 3
    assert by_frontend["dynamo"] == by_frontend["onnx"]
    assert not [g for _, g in tracker.plan(archs, onnx_sample=3) if g == "dynamo"]  # not unless asked for


def test_a_second_track_run_is_compared_with_the_first_and_a_regression_is_flagged(tracked):
    """Nightly gating: each track run is compared with the previous one in the database. Without the planted
    fault hf/bert gets further (no regression); with it again, hf/bert falls back, and the run says it regressed."""
    _, _, db = tracked
    better = track.track(["gpt2", "bert"], ("export",), onnx_sample=0, tt=False, jobs=2, triage=False, db_path=db)
    assert "no history" not in better.history and not better.regressed, better.history
    old = os.environ.copy()
    os.environ.update(TTBENCH_MLIR_WORKER_FAULT="hang:StableHLO")
    try:
        worse = track.track(["gpt2", "bert"], ("export",), onnx_sample=0, tt=False, jobs=2, triage=False, db_path=db,
                            timeout=45)
    finally:
        os.environ.clear()
        os.environ.update(old)
    assert worse.regressed and "hf/bert" in worse.history, worse.history


HOSTILE_ERROR = ('RuntimeError: bad """\nimport pathlib; pathlib.Path(__file__).with_name("ran").write_text("x")\n'
                 '""" \\N{no such name} \\x1 \\u12 \x00 \r tail')


def test_a_generated_script_never_runs_text_from_a_run_as_code(tmp_path):
    # The error went verbatim into the docstring: `"""` turned the rest into Python, `\N` or `\x` into a SyntaxError
    # (the verdict was then "does not reproduce" for that reason alone). The text can come from a results database.
    import ast

    class M(torch.nn.Module):
        def forward(self, x):
            return torch.ops.aten.add.Tensor(x, x)

    b = tb.bringup(M(), (torch.randn(3, 4),), tt=False, progress=False)
    node = next(n for n in b.fx_graph.graph.nodes if n.op == "call_function")
    text = scripts.op_script(node, "stablehlo", HOSTILE_ERROR, {"torch": '2"""\nimport os'})
    path = tmp_path / "repro.py"
    path.write_text(text)
    run = triage.run_script(str(path), 300, tt=False)
    assert run.passed and run.reached == "stablehlo", run
    assert not (tmp_path / "ran").exists()
    constants = {n.targets[0].id: ast.literal_eval(n.value) for n in ast.parse(text).body
                 if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name) and n.targets[0].id.isupper()}
    assert constants["EXPECTED_ERROR"] == HOSTILE_ERROR and constants["EXPECTED_STAGE"] == "stablehlo"
    model = scripts.hf_model_script("bert", {}, {"x": torch.zeros(2, dtype=torch.int64)}, tt=False,
                                    versions={"torch": "2"}, stage='fx"""', error=HOSTILE_ERROR)
    tree = ast.parse(model)  # a SyntaxError here was the bug
    assert ast.get_docstring(tree).count("EXPECTED_ERROR") == 1 and "pathlib" not in ast.get_docstring(tree)


def test_a_stored_rows_names_never_lead_outside_the_reproductions_folder(tracked, tmp_path):
    import shutil
    import sqlite3

    first, _, db = tracked
    copy = str(tmp_path / "edited.sqlite")
    shutil.copyfile(db, copy)
    conn = sqlite3.connect(copy)  # edited the way an attacker would: the stored row itself
    for job_id, text in conn.execute("SELECT id, row FROM jobs").fetchall():
        row = json.loads(text)
        if row.get("failed_stage"):
            row["failed_stage"] = "../../../escaped"
        conn.execute("UPDATE jobs SET row = ? WHERE id = ?", (json.dumps(row), job_id))
    conn.commit()
    conn.close()
    out = tmp_path / "a" / "b" / "out"
    out.mkdir(parents=True)
    track.track(from_run=str(first.run_id), db_path=copy, tt=False, repro_root=str(out / "repros"))
    assert sorted(p.name for p in (tmp_path / "a").rglob("*") if "repros" not in p.parts) == ["b", "out"]
    assert all("escaped" in p.name and ".." not in p.name for p in (out / "repros").iterdir())


def test_track_and_sweep_never_replace_a_users_own_pages(tmp_path):
    mine = tmp_path / "mine"
    (mine / "repros" / "notes").mkdir(parents=True)
    (mine / "status.md").write_text("my own status\n")
    (mine / "repros" / "notes" / "keep.txt").write_text("keep\n")
    for command in (["track", "--arch", "bert", "--no-tt"], ["sweep", "--models", "mlp", "--no-tt"]):
        done = run_cli(*command, "--out", str(mine), "--db", str(tmp_path / "db.sqlite"))
        assert done.returncode == 2, done.stderr
        assert done.stderr.strip().splitlines() == [
            f"ttbench: error: {mine / 'status.md'} is there and {mine} holds no status.json of "
            f"`ttbench {command[0]}`: ttbench replaces only pages it wrote; choose another --out"], done.stderr
    assert (mine / "status.md").read_text() == "my own status\n"
    assert (mine / "repros" / "notes" / "keep.txt").read_text() == "keep\n"
    assert not (tmp_path / "db.sqlite").exists()  # refused before any work


def test_the_status_pages_keep_no_markup_from_a_row(tracked, tmp_path):
    # status.md kept raw HTML and `javascript:` links from names and errors (a results database is data)
    import copy

    result = copy.deepcopy(tracked[0])
    hostile = "<img src=x onerror=alert(1)>[see](javascript:alert(1)) `x` | y"
    for row in result.rows:
        row["model"] = "hf/" + hostile
        row["error"] = hostile
    result.history = "before ```\n</pre>" + hostile
    page.write(result, str(tmp_path))
    text = (tmp_path / "status.md").read_text()
    head, rest = text.split("## History")
    history, tables = rest.split("## Failure groups")
    assert history.strip().startswith("````\n") and history.strip().endswith("\n````")  # outlasts the ``` inside
    for outside in (head, tables):  # in the fenced history, text is text
        assert not re.search(r"(?<!\\)<img", outside) and not re.search(r"(?<!\\)\]\(javascript:", outside)
    assert "\\<img src=x onerror=alert(1)\\>\\[see\\](javascript:alert(1)) \\`x\\` \\| y" in tables
    html = (tmp_path / "status.html").read_text()
    assert "<img src=x" not in html and "&lt;img src=x" in html
    for script in (tmp_path / "jobs").iterdir():  # the name is one word to the shell, never code
        import shlex

        commands = [line for line in script.read_text().splitlines() if not line.startswith("#")]
        assert commands and all(shlex.split(c)[2] == "hf/" + hostile for c in commands), commands
        assert ".." not in script.name and "<" not in script.name


# --- statuses, the expected table, carried-over jobs, the page people use (issue 43) ---------------------------------

def test_every_job_has_a_status_and_the_expected_table_gates_the_run(tmp_path):
    """hf/gpt2 fails in torch.export, hf/bert passes to StableHLO: a table that expects gpt2 to pass (a planted
    regression) fails the run and names it; bert, expected to fail, is said to be better."""
    from ttbench.fleet.track import statuses

    table = tmp_path / "expected.json"
    table.write_text(json.dumps({statuses.MODES[False]: {"hf/gpt2/export": "passed",
                                                         "hf/bert/export": "frontend failure"}}))
    out = tmp_path / "out"
    args = ("track", "--arch", "gpt2,bert", "--frontends", "export", "--no-tt", "--no-triage", "--db",
            str(tmp_path / "db.sqlite"), "--expected", str(table), "--out", str(out))
    done = run_cli(*args)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "worse: hf/gpt2/export: expected passed, now frontend failure" in done.stdout
    assert "better: hf/bert/export: expected frontend failure, now passed" in done.stdout
    rows = {r["model"]: r for r in json.loads((out / "status.json").read_text())["rows"]}
    assert rows["hf/gpt2"]["track_status"] == "frontend failure" and rows["hf/bert"]["track_status"] == "passed"
    assert "1 jobs worse than expected.json expects" in (out / "status.md").read_text()
    # tightened: the table now says what this run found, and the same run again (carried over) passes the gate
    done = run_cli(*args, "--update-expected")
    assert json.loads(table.read_text())[statuses.MODES[False]] == {"hf/bert/export": "passed",
                                                                    "hf/gpt2/export": "frontend failure"}
    done = run_cli(*args)
    assert done.returncode == 0 and "0 jobs worse" in done.stdout, done.stdout + done.stderr


def test_a_rerun_with_nothing_changed_carries_every_job_over(tmp_path):
    db = str(tmp_path / "db.sqlite")
    first = track.track(["bert", "albert"], ("export",), onnx_sample=0, tt=False, jobs=2, triage=False, db_path=db,
                        carry_over=True)
    assert not any(r.get("carried_over") for r in first.rows)
    t0 = time.perf_counter()
    again = track.track(["bert", "albert"], ("export",), onnx_sample=0, tt=False, jobs=2, triage=False, db_path=db,
                        carry_over=True)
    assert all(r.get("carried_over") == first.run_id for r in again.rows), again.rows
    assert time.perf_counter() - t0 < 30  # no job ran: the rows came from the database
    assert [r["track_status"] for r in again.rows] == [r["track_status"] for r in first.rows]
    assert "2 of them carried over from run(s) " + str(first.run_id) in page.markdown(again)
    # a ttbench setting (TTBENCH_*: timeouts, planted faults) can change what a job does: the job runs again
    os.environ["TTBENCH_EAGER_TIMEOUT"] = "599"
    try:
        third = track.track(["bert"], ("export",), onnx_sample=0, tt=False, jobs=1, triage=False, db_path=db,
                            carry_over=True)
    finally:
        del os.environ["TTBENCH_EAGER_TIMEOUT"]
    assert not third.rows[0].get("carried_over")


def test_a_package_bump_reruns_only_the_jobs_that_reached_its_stages(tmp_path, monkeypatch):
    """hf/gpt2 fails in torch.export (fx), hf/bert goes through torch-mlir to StableHLO: a new torch-mlir cannot
    change gpt2's row (it never reached torch-mlir), so only bert runs again; a new transformers builds both."""
    from ttbench.fleet import sweep

    db = str(tmp_path / "db.sqlite")

    def tracked(archs):
        return track.track(archs, ("export",), onnx_sample=0, tt=False, jobs=2, triage=False, db_path=db,
                           carry_over=True)

    first = tracked(["gpt2", "bert"])
    assert [(r["model"], r["failed_stage"]) for r in first.rows] == [("hf/gpt2", "fx"), ("hf/bert", None)]
    installed = sweep.versions()
    monkeypatch.setattr(sweep, "versions", lambda: {**installed, "torch-mlir": installed["torch-mlir"] + ".1"})
    bumped = tracked(["gpt2", "bert"])
    assert [(r["model"], r.get("carried_over")) for r in bumped.rows] == [("hf/gpt2", first.run_id),
                                                                          ("hf/bert", None)]
    assert [r["track_status"] for r in bumped.rows] == [r["track_status"] for r in first.rows]
    monkeypatch.setattr(sweep, "versions", lambda: {**installed, "torch-mlir": installed["torch-mlir"] + ".1",
                                                    "transformers": installed["transformers"] + ".1"})
    assert not tracked(["gpt2"]).rows[0].get("carried_over")
    # a timm model is built without transformers: a new transformers leaves every timm job's fingerprint alone
    from ttbench.fleet import carry_over

    options = {"tt": True, "run": True, "ops": False, "programs": True, "opt_level": None}
    prints = carry_over.fingerprints("timm/resnet", "export", options, installed)
    assert prints == carry_over.fingerprints("timm/resnet", "export", options, {**installed, "transformers": "9"})
    assert not set(prints) & set(carry_over.fingerprints("timm/resnet", "export", options,
                                                         {**installed, "timm": "9"}))


@pytest.mark.tt
def test_a_tt_plugin_bump_reruns_the_tt_stages_alone_from_the_kept_stablehlo(tmp_path, monkeypatch):
    """A job whose stages up to StableHLO are unchanged (only the TT plugin moved: the nightly case) resumes at the
    TT compile from what the last run kept: the same row as a whole run (statuses, op counts, PCC per stage),
    its export not run again; a bump of torch-mlir runs it whole, and what no job can use any more is removed."""
    from ttbench.fleet import kept_stages, sweep

    db = str(tmp_path / "db.sqlite")
    installed = sweep.versions()

    runs = []

    def tracked(bumped: dict):
        monkeypatch.setattr(sweep, "versions", lambda: {**installed, **bumped})
        runs.append(track.track(["bert"], ("export",), onnx_sample=0, tt=True, jobs=1, triage=False, db_path=db,
                                carry_over=True))
        return runs[-1].rows[0]

    def facts(row):
        return {k: row.get(k) for k in ("track_status", "furthest", "failed_stage", "ops", "stage_pcc", "pcc",
                                        "coverage", "embedded_bytes", "incorrect")}

    first = tracked({})
    assert first["furthest"] == "ttnn" and not first.get("resumed"), first
    kept = os.listdir(kept_stages.root_for(db))
    assert len(kept) == 1
    resumed = tracked({"tt-plugin": f"{installed['tt-plugin']}.1"})
    assert resumed.get("resumed") and not resumed.get("carried_over"), resumed
    assert facts(resumed) == facts(first)
    # the stages before the TT compile are the kept ones (a rerun measures its own seconds), the TT compile is new
    assert resumed["stages"]["fx"] == first["stages"]["fx"]
    assert resumed["stages"]["ttir"]["seconds"] != first["stages"]["ttir"]["seconds"]
    whole = tracked({"tt-plugin": f"{installed['tt-plugin']}.1", "torch-mlir": f"{installed['torch-mlir']}.1"})
    assert not whole.get("resumed") and facts(whole) == facts(first)
    assert whole["stages"]["fx"] != first["stages"]["fx"]
    assert os.listdir(kept_stages.root_for(db)) != kept and len(os.listdir(kept_stages.root_for(db))) == 1
    assert "1 resumed at the TT compile" in page.markdown(runs[1])
    assert "hf/bert (TT stages rerun from kept StableHLO)" in page.markdown(runs[1])
    # a kept folder that no longer reads back is dropped: the job runs whole (said) and keeps its stages anew
    (folder,) = os.listdir(kept_stages.root_for(db))
    with open(os.path.join(kept_stages.root_for(db), folder, kept_stages.VALUES_FILE), "r+b") as f:
        f.truncate(100)
    damaged = tracked({"tt-plugin": f"{installed['tt-plugin']}.2", "torch-mlir": f"{installed['torch-mlir']}.1"})
    assert not damaged.get("resumed") and "did not read back" in damaged["not_resumed"], damaged
    assert facts(damaged) == facts(first)
    assert kept_stages.complete(os.path.join(kept_stages.root_for(db), folder))


def test_a_stopped_run_started_again_runs_only_the_jobs_it_had_not_finished(tmp_path):
    db = str(tmp_path / "db.sqlite")

    def ctrl_c(phase, done, total, row):  # the user stops the run once its first job is in
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        track.track(["bert", "albert"], ("export",), onnx_sample=0, tt=False, jobs=1, triage=False, db_path=db,
                    carry_over=True, progress=ctrl_c)
    again = track.track(["bert", "albert"], ("export",), onnx_sample=0, tt=False, jobs=1, triage=False, db_path=db,
                        carry_over=True)
    stopped = again.run_id - 1
    assert [(r["model"], r.get("carried_over")) for r in again.rows] == [("hf/bert", stopped), ("hf/albert", None)]
    assert all(r["track_status"] == "passed" for r in again.rows)


@pytest.mark.browser
def test_the_status_page_sorts_filters_links_each_failure_to_its_reproduction_and_fits_1280px(tracked, tmp_path):
    from tests.browser import browser_page

    result, root, _ = tracked
    shutil.copytree(root / "repros", tmp_path / "repros")
    page.write(result, str(tmp_path))
    with browser_page() as view:
        view.set_viewport_size({"width": 1280, "height": 800})
        view.goto((tmp_path / "status.html").as_uri())
        table = view.locator("table.interactive")
        assert view.evaluate("document.documentElement.scrollWidth") <= 1280  # no horizontal scroll
        status_column = [c.inner_text() for c in table.locator("thead th").all()].index("status")
        table.locator("thead th").nth(status_column).click()  # worst first
        statuses = [r.locator("td").nth(status_column).inner_text() for r in table.locator("tbody tr").all()]
        assert statuses == sorted(statuses, key=lambda s: ["ttbench error", "frontend failure", "torch-mlir failure",
                                                           "TT compiler failure", "incorrect result",
                                                           "interpreter refusal", "passed"].index(s)), statuses
        assert statuses[0] == "frontend failure"
        colours = {r.locator("td").nth(status_column).inner_text(): r.evaluate("e => getComputedStyle(e).backgroundColor")
                   for r in table.locator("tbody tr").all()}
        assert len(set(colours.values())) == len(colours)  # one colour per status
        view.fill("input.filter", "gpt2")
        shown = [r for r in table.locator("tbody tr").all() if r.is_visible()]
        assert len(shown) == 1 and "hf/gpt2" in shown[0].inner_text()
        reproduction = [c.inner_text() for c in table.locator("thead th").all()].index("reproduction")
        link = shown[0].locator("td").nth(reproduction).locator("a")
        target = link.get_attribute("href")
        link.click()
        view.wait_for_load_state()
        assert view.url.endswith(target) and "import torch" in view.content()  # the reproduction itself
        assert not view.errors


def test_the_whole_tracker_takes_every_architecture_of_every_zoo_and_one_that_does_not_build_is_a_row(tmp_path):
    todo = track.plan()
    models = {m for m, _ in todo}
    assert len(todo) >= 800 and {"hf/dinat", "timm/resnet", "torchvision/raft_small"} <= models
    # dinat needs natten, which is not installed: its row says so, as a frontend failure, not a lost job
    result = track.track(["dinat"], ("export",), onnx_sample=0, tt=False, jobs=1, triage=False,
                         db_path=str(tmp_path / "db.sqlite"))
    row = result.rows[0]
    assert row["track_status"] == "frontend failure" and "the model did not build" in row["error"], row
    assert "natten" in row["error"]


def test_a_page_written_from_another_checkouts_rows_shows_no_machine_path():
    # `--from-run` in one checkout over rows made in another: torch-mlir's errors quote ttbench's stack trace
    text = triage.shown('FIX ME: {\'stack_trace\': \'File "/srv/nightly/checkout/ttbench/hf_zoo.py", line 571\'}\n'
                        '  File "/srv/nightly/checkout/.venv/lib/python3.11/site-packages/torch/nn/module.py"\n'
                        '  File "/srv/nightly/checkout/.venv/lib/pyth')  # cut short where the row's error was
    assert "/srv" not in text and '"ttbench/hf_zoo.py", line 571' in text and '"site-packages/torch/nn' in text
