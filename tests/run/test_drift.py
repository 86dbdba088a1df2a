"""Error attribution (issue 42): which ops the final error of a TT program run in bf16 pays for. Each model goes
through the real Tenstorrent compiler (compile-only); its TTNN program runs chained in ttbench's interpreter, in
bf16 and exactly, with parts healed. The models are defined here, in a file, so every op keeps its source line."""
import numpy as np
import pytest
import torch

import ttbench as tb
from ttbench.core import BadInput
from ttbench.tt.interp import interpret
from ttbench.tt.program import parse_program
from ttbench.tt.sim.executor import available

pytestmark = pytest.mark.tt


class OneCancellation(torch.nn.Module):
    """Many ops whose bf16 rounding costs little, and one that destroys its input: x + 1000 keeps 8 bits of
    mantissa at 1000, so bf16 rounds x to a multiple of 4 there; the subtraction after it is exact."""

    def forward(self, x):
        for _ in range(160):
            x = x * 1.0078125  # exactly representable in bf16: only the product is rounded
        y = x + 1000.0
        y = y - 1000.0
        for _ in range(160):
            y = y * 0.9921875
        return y


class EvenSteps(torch.nn.Module):
    """Sixty like ops, each rounding its result once and passing the error on unchanged: the error is spread over
    all of them."""

    def forward(self, x):
        for _ in range(60):
            x = x * 1.0078125
        return x


_BRINGUPS = {}


def _bringup(model_cls):
    if model_cls not in _BRINGUPS:
        torch.manual_seed(0)
        _BRINGUPS[model_cls] = tb.bringup(model_cls(), (torch.randn(4, 64),), name=model_cls.__name__, tt=True,
                                          progress=False)
    b = _BRINGUPS[model_cls]
    assert b.stages["ttnn"].ok, b.stages["ttnn"].error
    return b


def test_one_dominant_op_is_ranked_first_with_most_of_the_error_within_twenty_runs():
    b = _bringup(OneCancellation)
    report = b.drift(progress=False)
    assert report.units >= 300  # the cost bound is said for a 300-op program
    assert report.runs <= 20
    top = report.contributors[0]
    assert top.kind == "op" and top.what.startswith("ttnn.add"), str(report)
    assert top.share >= 0.5 and top.location.startswith("test_drift.py:")
    assert "% of the final error comes from ttnn.add" in report.verdict
    assert report.final_pcc < 0.99 < top.recovered_pcc  # healing the culprit alone gives the PCC back
    assert report.hypotheses()[0].startswith(f"run {top.what}") and "in f32" in report.hypotheses()[0]


def test_evenly_spread_error_names_no_culprit():
    report = _bringup(EvenSteps).drift(progress=False)
    assert report.final_pcc < 1.0
    assert "spread" in report.verdict and "comes from" not in report.verdict.split(":")[0], str(report)
    assert all(c.share < 0.5 for c in report.contributors if c.kind == "op"), str(report)


def test_healing_every_op_gives_back_the_exact_outputs_and_healing_none_does_not():
    b = _bringup(OneCancellation)
    program = parse_program("ttnn", b.stages["ttnn"].full_text())
    everything = frozenset(p.op.index for p in program.main.ops)
    exact = interpret(program, list(b.argument_values)).outputs[0]
    healed = interpret(program, list(b.argument_values), precision="bf16", exact=everything).outputs[0]
    reduced = interpret(program, list(b.argument_values), precision="bf16").outputs[0]
    assert torch.equal(healed, exact)
    assert not torch.equal(reduced, exact)


def test_drift_refuses_bad_arguments_before_any_run():
    b = _bringup(EvenSteps)
    with pytest.raises(BadInput, match="stage must be one of ttir, ttnn"):
        b.drift(stage="stablehlo")
    with pytest.raises(BadInput, match="max_runs must be an integer of at least"):
        b.drift(max_runs=2)
    with pytest.raises(BadInput, match="runs on cpu"):
        b.drift(device="tt")


def test_the_drift_view_escapes_and_plots():
    b = _bringup(OneCancellation)
    report = b.drift(progress=False)
    report.model = "<script>x</script>"
    page = report._repr_html_()
    assert "<script>x" not in page and "&lt;script&gt;" in page
    assert "share of error" in page and "ttnn.add" in page
    figure = report.plot()
    ax = figure.axes[0]
    assert ax.get_yscale() == "log" and any("ttnn.add" in t.get_text() for t in ax.texts)
    assert np.isfinite(report.to_dict()["final_error"])


class MatmulStack(torch.nn.Module):
    """Six linear layers: on the simulator only the matmuls lose precision (ttnn's bf16 kernels); the element-wise
    ops compute f32 tiles exactly."""

    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList(torch.nn.Linear(64, 64) for _ in range(6))

    def forward(self, x):
        for layer in self.layers:
            x = torch.tanh(layer(x))
        return x


@pytest.mark.ttsim
@pytest.mark.skipif(available() is not None, reason=f"no simulator here: {available()}")
def test_on_the_simulator_the_matmuls_hold_the_error_found_by_prefix_bisection():
    torch.manual_seed(0)
    b = tb.bringup(MatmulStack(), (torch.randn(32, 64),), name="matmuls", tt=True, progress=False)
    report = b.drift(device="ttsim", progress=False)
    assert report.runs <= 20 and report.final_pcc < 1.0
    assert "ttsim" in report.produced_by
    top = report.contributors[0]
    assert top.kind == "sum" and "ttnn.matmul" in top.what and top.share >= 0.8, str(report)
    assert report.verdict.startswith(f"{top.share * 100:.0f} % of the final error comes from the"), report.verdict
    assert all(c.kind in ("op", "ops", "sum") for c in report.contributors)  # no out-of-order healing there
    tried = [c for c in report.contributors if c.what_if]
    assert tried and all("hifi4" in c.what_if["change"] for c in tried)
    assert any("with math_fidelity = hifi4" in h for h in report.hypotheses())


def test_an_exported_drift_report_is_in_report_html_with_a_model_explorer_overlay(tmp_path):
    import json

    b = _bringup(OneCancellation)
    report = b.drift(progress=False)
    b.export(str(tmp_path / "out"), explorer=True, report=report)
    saved = json.loads((tmp_path / "out" / "drift.json").read_text())
    assert saved["verdict"] == report.verdict and saved["contributors"][0]["what"].startswith("ttnn.add")
    page = (tmp_path / "out" / "report.html").read_text()
    assert "ttbench-drift" in page and "share of error" in page and report.verdict.split(" (")[0] in page
    overlay = json.loads((tmp_path / "out" / "explorer" / "ttnn.drift.json").read_text())["ttnn"]["results"]
    culprit = str(report.contributors[0].ops[0])
    assert overlay[culprit]["value"] >= 50 and overlay[culprit]["bgColor"] == "#b71c1c"


@pytest.mark.ttsim
@pytest.mark.skipif(available() is not None, reason=f"no simulator here: {available()}")
def test_a_simulator_divergence_gets_a_standalone_ttnn_script_that_fails_alone_the_same_way(tmp_path):
    import json

    from ttbench.tt.sim.executor import run_standalone

    torch.manual_seed(0)
    b = tb.bringup(MatmulStack(), (torch.randn(32, 64),), name="matmuls", tt=True, progress=False)
    report = b.op_by_op(device="ttsim", pcc=0.9999999, progress=False)  # the kernels' bf16 matmul falls below
    matmuls = [row for row in report.failed() if row.op == "ttnn.matmul" and row.pcc is not None]
    assert matmuls, report.summary()
    b.export(str(tmp_path / "out"), report=report)
    folder = tmp_path / "out" / "repro" / f"ttsim_op_{matmuls[0].nodes[0].lstrip('#')}"
    facts = json.loads((folder / "facts.json").read_text())
    assert facts["repro"]["reproduces"] is True, facts
    script = (folder / "repro.py").read_text()
    imports = {l.split()[1] for l in script.splitlines() if l.startswith(("import ", "from "))}
    assert imports == {"os", "sys", "numpy", "ttnn"}
    assert "    out = ttnn.matmul(operand_0, operand_1" in script
    done = run_standalone(str(folder / "repro.py"))  # again, by hand: the same failure
    assert done.returncode == 1 and f"FAIL: PCC {matmuls[0].pcc:.6f}" in done.stdout, done.stdout


def test_the_command_line_prints_the_attribution_and_writes_drift_json(tmp_path):
    from tests.cli_runner import run_cli

    done = run_cli("bringup", "mlp", "--drift", "ttnn", "--out", str(tmp_path / "mlp"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "mlp ttnn in bf16 on cpu: final PCC" in done.stdout
    assert (tmp_path / "mlp" / "drift.json").is_file()
    bad = run_cli("bringup", "mlp", "--drift", "ttnn", "--no-tt")
    assert bad.returncode == 2 and "--drift need the Tenstorrent stages" in bad.stderr


def test_a_standalone_ttnn_script_is_python_whatever_the_ops_text_holds():
    """The op's text, ttnn's message and the command are untrusted: quotes and backslashes stay inside the
    script's docstring (no ttnn needed: the script is compiled, not run)."""
    from ttbench.tt.sim.standalone import script_for

    text = ('module {\n  func.func @main(%arg0: tensor<2x32xf32>, %arg1: tensor<2x32xf32>) -> tensor<2x32xf32> {\n'
            '    %0 = "ttnn.add"(%arg0, %arg1) : (tensor<2x32xf32>, tensor<2x32xf32>) -> tensor<2x32xf32> '
            'loc("a\\"\\"\\" b")\n    return %0 : tensor<2x32xf32>\n  }\n}\n')
    (op,) = parse_program("ttnn", text).main.ops
    op.op.text += ' """ \\ """'
    script, why = script_for(op, 'ttnn said: """\\x00', "0.5", 0.99, 'X=1 python "repro.py"')
    assert why is None
    compile(script, "repro.py", "exec")
    assert "    out = ttnn.add(operand_0, operand_1)" in script
    conv, why_not_written = script_for(parse_program("ttnn", text.replace("ttnn.add", "ttnn.exotic")).main.ops[0],
                                       "", "0.5", 0.99, "")
    assert conv is None and "no standalone ttnn script for ttnn.exotic" in why_not_written
