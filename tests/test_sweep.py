"""The zoo sweep (issue 9): a status table from parallel workers, known failures in one list."""
import json
import subprocess
import sys

import ttbench as tb
from ttbench.sweep import KNOWN_FAILURES, classify, known_failures


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
