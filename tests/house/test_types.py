"""mypy over the records, the IR readers, the analyses and the public API (the files pyproject.toml's [tool.mypy]
names): a record built or read with the wrong type fails here, before any model runs."""
import os
import subprocess
import sys
import pytest
from tests.paths import REPO

pytestmark = pytest.mark.subprocess  # mypy runs as a child



def test_the_typed_core_is_clean_under_mypy(tmp_path):
    r = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")], cwd=REPO,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_would_catch_a_stage_built_from_a_bare_string(tmp_path):
    # The check has teeth: a record field typed with a closed set refuses a plain str argument.
    probe = tmp_path / "probe.py"
    probe.write_text("from ttbench.records.findings import Finding\n"
                     "def f(kind: str) -> Finding:\n"
                     "    return Finding(kind=kind, stage='fx', op=None, location=None, message='')\n")
    r = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), "--follow-imports",
                        "silent", "--ignore-missing-imports", str(probe)], cwd=REPO, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 1 and "FindingKind" in r.stdout, r.stdout + r.stderr


def test_closed_sets_read_as_their_strings_and_refuse_other_values():
    import json

    import pytest

    from ttbench.records.findings import Finding
    from ttbench.core import ArgInfo, FindingKind, Stage, StageName

    stage = Stage(name="stablehlo", ok=True)
    assert stage.name is StageName.STABLEHLO and stage.name == "stablehlo"
    # what a notebook prints and what files hold are unchanged: plain strings
    assert repr([stage.name]) == "['stablehlo']" and f"{stage.name}" == "stablehlo"
    assert json.dumps({FindingKind.INPLACE: stage.name}) == '{"inplace": "stablehlo"}'
    with pytest.raises(ValueError):
        Stage(name="stablehlo2", ok=True)
    with pytest.raises(ValueError):
        ArgInfo("x", "weights", (1,), "f32")
    with pytest.raises(ValueError):
        Finding(kind="inplace-ish", stage="fx", op=None, location=None, message="")
