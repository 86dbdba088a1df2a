"""The `ttbench` command: output folder, exit codes, one-line errors. Run in this process (ttbench.cli.main, its
stdout, stderr and exit code captured) except where the process is the point: the installed entry point."""
import json
import os
import subprocess
import sys

import pytest
from tests.cli_runner import run_cli as run

pytestmark = pytest.mark.subprocess  # the command line, as a user runs it

TTBENCH = [sys.executable, "-m", "ttbench.cli"]


def test_models_lists_the_zoo_from_the_installed_command():
    r = subprocess.run([*TTBENCH, "models"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0
    names = [l.split()[0] for l in r.stdout.splitlines()]
    assert {"mlp", "mobilenet_v2", "bert_tiny", "resnet50"} <= set(names)


@pytest.mark.tt  # its assertions need the Tenstorrent compiler's stages
def test_bringup_writes_every_stage(tmp_path):
    out = tmp_path / "mlp"
    r = run("bringup", "mlp", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "stablehlo" in r.stdout and "ttnn" in r.stdout
    assert "[3/5] stablehlo" in r.stderr  # progress while it works
    assert [line.split()[1] for line in r.stderr.splitlines() if line.startswith("[")] == \
        ["fx", "torchfx", "stablehlo", "ttir", "ttnn"]  # one line per stage in a log
    assert max(len(line) for line in r.stdout.splitlines() if str(out) not in line) <= 120  # fits a terminal
    assert "--wide" in r.stdout
    files = set(os.listdir(out))
    assert {"fx.txt", "torchfx.mlir", "stablehlo.mlir", "ttir.mlir", "ttnn.mlir", "manifest.json",
            "weights.safetensors", "ttir.input.stablehlo.mlir", "ttnn.flatbuffer.ttnn"} <= files
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["model"] == "mlp" and manifest["frontend"] == "export" and manifest["params"] == "args"
    assert manifest["versions"]["torch-mlir"] == "20261001"
    assert all(s["ok"] for s in manifest["stages"].values())
    assert manifest["stages"]["ttnn"]["meta"]["flatbuffer_bytes"] == os.path.getsize(out / "ttnn.flatbuffer.ttnn")
    assert "loc(" in (out / "stablehlo.mlir").read_text()
    assert "findings, all stages together:" in r.stdout and "coverage" in r.stdout  # the findings summary is printed
    findings = json.loads((out / "findings.json").read_text())
    assert [row["stage"] for row in findings["summary"]["stages"]] == ["fx", "torchfx", "stablehlo", "ttir", "ttnn"]
    assert findings["summary"]["stages"][0]["coverage"] == 1.0


def test_inline_weights_go_to_a_separate_file_and_parse_back(tmp_path):
    from torch_mlir import ir
    from torch_mlir._mlir_libs import _stablehlo
    from torch_mlir.dialects import torch as torch_d

    out = tmp_path / "inline"
    r = run("bringup", "mlp", "--params", "inline", "--no-tt", "--out", str(out))
    assert r.returncode == 0, r.stderr
    report = next(line for line in r.stdout.splitlines() if line.startswith("report: "))  # where to look next
    assert report.split()[1] == str(out.resolve() / "report.html") and (out / "report.html").is_file()
    for stage in ("torchfx", "stablehlo"):
        ir_text = (out / f"{stage}.mlir").read_text()
        weights = (out / f"{stage}.weights.mlir").read_text()
        assert "0x" not in ir_text.split("loc(")[0] and len(weights) > 10 * 1024
        ctx = ir.Context()
        torch_d.register_dialect(ctx)
        _stablehlo.register_dialect(ctx)
        with ctx:
            ir.Module.parse(ir_text + weights)


def test_run_on_cpu_writes_run_and_op_by_op_results(tmp_path):
    out = tmp_path / "run"
    r = run("bringup", "mlp", "--no-tt", "--run", "cpu", "--op-by-op", "--chained", "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "run: stablehlo on cpu: ok" in r.stdout and "op-by-op (chained" in r.stdout
    result = json.loads((out / "run.json").read_text())
    assert result["ok"] and result["executed"] and result["pcc"] > 0.9999
    report = json.loads((out / "op_by_op.json").read_text())
    assert report["mode"] == "chained" and report["ok"] and report["first_divergence"] is None
    assert report["total_ops"] == len(report["ops"]) > 10


@pytest.mark.tt  # its assertions need the Tenstorrent compiler's stages
def test_failing_stage_exits_1_and_keeps_what_it_has(tmp_path):
    out = tmp_path / "t"
    r = run("bringup", "mlp", "--tt-timeout", "0.5", "--out", str(out))
    assert r.returncode == 1
    assert "timed out" in r.stdout
    assert {"fx.txt", "torchfx.mlir", "stablehlo.mlir"} <= set(os.listdir(out))
    assert "ttir.mlir" not in os.listdir(out)


@pytest.mark.parametrize("args, message", [
    (["bringup", "no_such_model"], "unknown model 'no_such_model'"),
    (["bringup", "missing.onnx"], "ONNX file not found"),
    (["bringup", "GARBAGE"], "is not a readable ONNX model"),
    (["bringup", "mlp", "--input-shape", "4x7"], "the model raised RuntimeError: mat1 and mat2 shapes cannot be "
                                                 "multiplied (4x7 and 32x64) at loader.py:14"),
    (["bringup", "mlp", "--input-shape", "4xa"], "is not a shape"),
    (["bringup", "mlp", "--frontend", "torchscript"], "invalid choice"),
    (["bringup", "mlp", "--op-by-op"], "--op-by-op and --chained need --run DEVICE"),
    (["bringup", "mlp", "--run", "gpu"], "invalid choice"),
])
def test_bad_input_exits_2_with_one_line_and_no_folder(tmp_path, args, message):
    if "GARBAGE" in args:
        garbage = tmp_path / "garbage.onnx"
        garbage.write_bytes(b"\x08\x07not a protobuf at all\xff\xff")
        args = [str(garbage) if a == "GARBAGE" else a for a in args]
    out = tmp_path / "out"
    r = run(*args, "--out", str(out), cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and message in err[0] and "Traceback" not in r.stderr
    assert not out.exists() and not [p for p in os.listdir(tmp_path) if p.startswith(".out")]


def test_onnx_file_path_brings_up(tmp_path):
    import torch

    import ttbench as tb

    model, inputs = tb.models.load("mlp")
    path = tmp_path / "mlp.onnx"
    torch.onnx.export(model, inputs, str(path), dynamo=True)
    out = tmp_path / "o"
    r = run("bringup", str(path), "--no-tt", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert {"onnx.txt", "torchfx.mlir", "stablehlo.mlir"} <= set(os.listdir(out))


def test_doctor_names_each_piece():
    r = run("doctor")
    for piece in ("torch-mlir", "tt plugin", "tt device", "descriptor cache", "dot", "netron"):
        assert piece in r.stdout


def test_every_command_says_what_it_is_for_in_its_own_help():
    from ttbench.cli.args import build_parser

    commands = build_parser()._subparsers._group_actions[0].choices
    for name, parser in commands.items():
        assert parser.description and parser.description.endswith("."), name
    r = run("track", "--help")
    assert r.returncode == 0 and "The model tracker: every transformers architecture" in r.stdout
