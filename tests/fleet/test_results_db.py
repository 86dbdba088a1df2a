"""The results database tells the truth: a killed run is incomplete and never taken for the last run silently;
a damaged database is one line and exit 2, never a traceback under the 'regressed' exit code."""
import os
import sqlite3

import pytest
from tests.cli_runner import run_cli

import ttbench as tb
from ttbench.fleet import results_db

pytestmark = pytest.mark.subprocess  # the command line, as a user runs it

ROW = {"model": "mlp", "frontend": "export", "params": "args", "furthest": "stablehlo", "status": "pass", "pcc": 1.0}


def _cli(*args):
    r = run_cli(*args)
    return r.returncode, r.stdout, r.stderr


def _db_with_runs(path, finished: list):
    db = results_db.connect(str(path))
    for i, done in enumerate(finished):
        run = results_db.start_run(db, "sweep", f"v{i + 1}")
        results_db.add_job(db, run, {**ROW, "pcc": 1.0 if done else 0.2})  # the killed run looks like a drop
        if done:
            results_db.finish_run(db, run)
    return db


def test_history_passes_over_a_killed_run_and_says_so(tmp_path):
    path = tmp_path / "r.sqlite"
    _db_with_runs(path, [True, True, False]).close()
    code, out, err = _cli("history", "--db", str(path))
    assert code == 0, out + err  # runs 1 and 2 compared: no change, no false regression from the killed run 3
    assert out.splitlines()[0] == "note: run 3 is incomplete (killed before finishing): compared the last complete run, 2"
    assert "run 1 (v1" in out and "run 2 (v2" in out and "no job changed" in out
    code, out, _ = _cli("history", "--db", str(path), "--after", "3")  # asked for by name: shown, and marked
    assert code == 1 and "INCOMPLETE" in out


def test_a_run_killed_before_it_finishes_stays_incomplete(tmp_path):
    db = _db_with_runs(tmp_path / "r.sqlite", [True, False])
    assert results_db.run_ids(db, complete_only=True) == [1] and results_db.run_ids(db) == [1, 2]


@pytest.mark.parametrize("damage", ["bytes", "row"])
def test_a_damaged_database_is_one_line_and_exit_2(tmp_path, damage):
    path = tmp_path / "r.sqlite"
    _db_with_runs(path, [True, True]).close()
    if damage == "bytes":
        data = bytearray(path.read_bytes())
        data[200:4000] = b"\xff" * 3800  # pages overwritten
        path.write_bytes(bytes(data))
    else:
        with sqlite3.connect(path) as con:
            con.execute("UPDATE runs SET versions = 'not json' WHERE id = 2")
    code, out, err = _cli("history", "--db", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1 and str(path) in err, out + err
    assert "Traceback" not in err


def test_an_unwritable_database_place_is_one_line(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("root writes anywhere")
        with pytest.raises(tb.BadInput, match="cannot write the results database"):
            results_db.connect(str(folder / "r.sqlite"))
    finally:
        folder.chmod(0o700)


def test_history_reads_a_database_it_may_not_write_and_leaves_it_as_it_was(tmp_path):
    # history opened the database to write (schema, migration): one it could only read was refused
    path = tmp_path / "r.sqlite"
    _db_with_runs(path, [True, True]).close()
    with sqlite3.connect(path) as con:  # from before runs were marked: connect() would add the column
        con.execute("ALTER TABLE runs DROP COLUMN complete")
    before = path.read_bytes()
    path.chmod(0o444)
    immutable = os.system(f"chattr +i {path} 2>/dev/null") == 0  # read-only even for root, where it can be had
    try:
        code, out, err = _cli("history", "--db", str(path))
    finally:
        if immutable:
            os.system(f"chattr -i {path}")
    assert code == 0 and "no job changed" in out, out + err
    assert path.read_bytes() == before


def test_a_stored_rows_hostile_contents_are_one_line_each(tmp_path):
    path = tmp_path / "r.sqlite"
    _db_with_runs(path, [True]).close()
    db = results_db.connect(str(path))
    run = results_db.start_run(db, "sweep", "v2")
    results_db.add_job(db, run, {**ROW, "status": "new failure", "failed_stage": "stablehlo",
                                 "error": "boom\n" + "x" * 50_000_000})  # 50 MB, printed whole before
    results_db.finish_run(db, run)
    db.close()
    code, out, err = _cli("history", "--db", str(path))
    assert code == 1 and len(out) < 5000, len(out)
    [line] = [l for l in out.splitlines() if l.startswith("REGRESSION")]
    assert line.endswith("... (50,000,005 characters)") and "boom x" in line
    with sqlite3.connect(path) as con:
        con.execute("UPDATE runs SET versions = ? WHERE id = 2", ("[" * 100_000 + "]" * 100_000,))
    code, out, err = _cli("history", "--db", str(path))
    assert code == 2 and err.strip().splitlines() == [
        f"ttbench: error: {path} holds a row nested too deeply to read: give another --db, or move it aside to "
        "start a new one"], err
    code, out, err = _cli("history", "--db", str(path), "--before", "7")  # was wrapped as "holds a row ..."
    assert code == 2 and "holds a row" not in err and "7" in err, err


def _two_runs(path, first: dict, second: dict):
    db = results_db.connect(str(path))
    for row in (first, second):
        run = results_db.start_run(db, "track", None)
        results_db.add_job(db, run, {**ROW, **row})
        results_db.finish_run(db, run)
    db.close()


def test_an_incorrect_tt_result_is_failing_in_the_history(tmp_path):
    # the history read only the CPU run and the failed stage: a job whose TT program stopped matching PyTorch read
    # as unchanged, and one that went from an error to an incorrect result as "newly passing"
    wrong = {"status": "incorrect result", "run_ok": True, "furthest": "ttnn"}
    _two_runs(tmp_path / "a.sqlite", {"furthest": "ttnn"}, wrong)
    code, out, _ = _cli("history", "--db", str(tmp_path / "a.sqlite"))
    assert code == 1 and "REGRESSION: mlp/export/args: newly failing: incorrect result" in out, out
    _two_runs(tmp_path / "b.sqlite", {"run_ok": False, "error": "5 outputs, the golden has 1", "furthest": "ttnn"},
              wrong)
    code, out, _ = _cli("history", "--db", str(tmp_path / "b.sqlite"))
    assert "newly passing" not in out and code == 0, out
