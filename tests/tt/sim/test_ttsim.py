"""The TTNN program on Tenstorrent's simulator (ttsim), replayed as ttnn calls in the Python 3.12 side environment.

Tests marked `ttsim` need the side environment (`make sim-env`) and a simulator (TTBENCH_TTSIM=/path/to/
libttsim_bh.so, soc_descriptor.yaml beside it: the user's download); they are skipped, with that reason, where
either is missing (CI has no simulator). The others run everywhere: what a user without a simulator sees.
"""
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

import ttbench as tb
from ttbench.core import BadInput
from ttbench.run.simulated_ops import op_by_op_report, simulate_ops
from ttbench.run.stage_compare import simulator_comparison
from ttbench.tt.sim import env as sim_env
from ttbench.tt.sim.executor import available
from tests.paths import REPO

SIM_MISSING = available()
needs_ttsim = pytest.mark.skipif(SIM_MISSING is not None, reason=f"no simulator here: {SIM_MISSING}")
pytestmark = [pytest.mark.ttsim, pytest.mark.tt]


@pytest.fixture
def no_simulator(monkeypatch):
    monkeypatch.delenv("TTBENCH_TTSIM", raising=False)
    sim_env.simulator.cache_clear()
    yield
    sim_env.simulator.cache_clear()


def test_without_a_simulator_the_run_says_what_is_missing_and_where_to_get_it(zoo_bringup, no_simulator):
    b = zoo_bringup("mlp", "export", "args", tt=True)
    result = b.run("ttnn", device="ttsim")
    assert not result.executed and result.pcc is None
    assert "TTBENCH_TTSIM" in result.message and "github.com/tenstorrent/ttsim/releases" in result.message
    assert "ttsim" in result.device


def test_the_simulator_replays_the_ttnn_program_only(zoo_bringup):
    b = zoo_bringup("mlp", "export", "args", tt=True)
    with pytest.raises(BadInput, match="replays the TTNN program"):
        b.run("stablehlo", device="ttsim")


def test_the_program_model_keeps_each_tensor_s_layout_for_the_simulator(zoo_bringup):
    """The replay places every value where the IR says (tiles in DRAM, row-major on the host): the program model
    carries each type's layout attribute, aliases resolved."""
    from ttbench.tt.program import parse_program

    b = zoo_bringup("mlp", "export", "args", tt=True)
    program = parse_program("ttnn", b.stages["ttnn"].full_text())
    matmul = next(p for p in program.ops() if p.name == "ttnn.matmul")
    assert "!ttcore.tile<32x32, f32>" in matmul.result_types[0].encoding and "#dram" in matmul.result_types[0].encoding
    assert "#system_memory" in program.main.argument_types[0].encoding


@needs_ttsim
def test_mlp_ttnn_on_the_simulator_matches_pytorch(zoo_bringup):
    b = zoo_bringup("mlp", "export", "args", tt=True)
    result = b.run("ttnn", device="ttsim")
    assert result.executed and result.ok, result.message
    assert result.pcc >= 0.999
    assert "simulator" in result.produced_by and "ttsim" in result.device


@needs_ttsim
def test_a_level_2_program_runs_on_the_simulator_with_the_optimizers_sharding_honoured():
    m, x = tb.models.load("mlp")
    b = tb.bringup(m, x, opt_level=2, name="mlp", progress=False)
    sharded = b.placement().sharded
    result = b.run("ttnn", device="ttsim")
    assert result.ok and result.pcc >= 0.999, result.message
    # every result the optimizer sharded is placed so on the simulated chip, not flattened to interleaved
    assert sharded >= 10 and f"{sharded} op results placed sharded" in result.message


@pytest.mark.skipif(not sim_env.side_env().available, reason="no side environment here (make sim-env)")
def test_ttnns_own_graph_capture_gives_peak_l1_beside_the_static_figures_without_a_simulator(no_simulator, tmp_path):
    m, x = tb.models.load("mlp")
    b = tb.bringup(m, x, opt_level=2, name="mlp", progress=False)
    report = b.memory(ttnn_report=str(tmp_path / "memory"))  # and the folder ttnn-visualizer opens
    check = report.ttnn_check
    assert "error" not in check, check
    core = check["per_core"]
    # ttnn's tensors per core hold at least the program's own (its figure adds the replay's transient copies)
    assert core["l1"] >= report.peak_l1.l1_per_core > 0 and core["cb"] > 0
    assert max(core["l1"], core["cb"]) <= core["total"] <= core["l1"] + core["cb"] and "mock" in check["produced_by"]
    assert "ttnn's check (graph capture, nothing dispatched): peak L1 per core" in report.summary()
    with sqlite3.connect(tmp_path / "memory" / "db.sqlite") as db:  # ttnn's own schema, its ops and buffers
        assert db.execute("SELECT COUNT(*) FROM operations").fetchone()[0] > 10
        assert db.execute("SELECT COUNT(*) FROM buffers").fetchone()[0] > 0
    assert (tmp_path / "memory" / "config.json").is_file()
    with pytest.raises(BadInput, match="exists: ttnn_report is written into a new folder"):
        b.memory(ttnn_report=str(tmp_path / "memory"))  # never over a folder that is there


@needs_ttsim
def test_op_by_op_on_the_simulator_keeps_the_users_timeout(zoo_bringup):
    b = zoo_bringup("mlp", "export", "args", tt=True)
    t0 = time.perf_counter()
    with pytest.raises(BadInput, match=r"did not finish in 0.5 s|timed out after 0.5 s waiting"):
        b.op_by_op(device="ttsim", mode="chained", timeout=0.5, progress=False)
    assert time.perf_counter() - t0 < 60  # not the simulator's default half hour


@needs_ttsim
def test_a_simulator_abort_is_a_row_naming_it_and_the_rest_goes_on(zoo_bringup):
    """vit_tiny's TTNN repeats a bf16 mask, which ttsim does not implement (`tensix_unpacr: unpack_to_dst=1
    in_data_format=5`: it _Exits). The whole run names the op and the simulator's line; op by op, that op is a
    row with the line, and the ops after it run in a fresh child and get their PCC."""
    b = zoo_bringup("vit_tiny", "export", "args", tt=True)
    whole = b.run("ttnn", device="ttsim")
    assert not whole.executed and "UnimplementedFunctionality" in whole.message and "ttnn." in whole.message
    replay = simulate_ops(b, "isolated", progress=False)
    report = op_by_op_report(b, replay, pcc=0.99)
    aborted = [r for r in report.rows if r.error and "simulator aborted" in r.error]
    assert aborted and "UnimplementedFunctionality" in aborted[0].error
    after = [r for r in report.rows if r.index > aborted[-1].index and r.pcc is not None]
    assert after, "nothing ran after the abort"
    assert sum(r.ok for r in report.rows) > len(report.rows) // 2
    # The stage comparison reads the same replay with the same classifier: the same ops, each with the same
    # verdict (they listed different ops when each had its own skip list and comparator).
    comparison = simulator_comparison(b, replay, min_pcc=0.99)
    by_report = {int(r.nodes[0][1:]): (r.ok, r.pcc, r.error if r.pcc is None else "") for r in report.rows}
    by_comparison = {m.op.index: (m.ok, m.pcc, m.reason) for m in comparison.rows + comparison.unmatched}
    assert by_report == by_comparison
    assert any(m.reason.startswith("the simulator aborted") for m in comparison.unmatched)


class _Upsample(__import__("torch").nn.Module):
    """Two transposed convs as a U-Net's decoder has them; output_padding=1 makes the compiler write a 4-value
    padding in TTIR's order, which ttnn reads in its own."""

    def __init__(self, output_padding: int):
        import torch

        super().__init__()
        self.up = torch.nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.up3 = torch.nn.ConvTranspose2d(16, 8, 3, stride=1 + output_padding, padding=1,
                                            output_padding=output_padding)

    def forward(self, x):
        return self.up3(self.up(x).relu())


@needs_ttsim
def test_transposed_convs_run_on_the_simulator_and_a_shape_ttnn_reads_otherwise_is_named_at_its_op():
    import torch

    torch.manual_seed(0)
    x = torch.randn(1, 32, 8, 8)
    b = tb.bringup(_Upsample(0).eval(), (x,), progress=False)
    result = b.run("ttnn", device="ttsim")
    assert result.executed and result.pcc >= 0.999, result.message  # a 3x3 kernel: mirrored, it would not match
    b = tb.bringup(_Upsample(1).eval(), (x,), progress=False)
    result = b.run("ttnn", device="ttsim")
    assert not result.executed and "ttnn.conv_transpose2d" in result.message, result.message
    assert "ShapeDisagrees" in result.message and "internal error" not in result.message, result.message


@needs_ttsim
def test_a_killed_run_leaves_no_simulator_process_and_no_lock_file(tmp_path):
    def leftovers():
        return {n for n in os.listdir("/dev/shm") if n.startswith(("TT_UMD_LOCK.", "tt_device_0", "sm_segment."))}

    before = leftovers()
    script = ("import ttbench as tb; b = tb.bringup(*tb.models.load('mlp')); "
              "print('STARTED', flush=True); b.run('ttnn', device='ttsim')")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, start_new_session=True)
    try:
        assert proc.stdout.readline().strip() == "STARTED"
        deadline = time.monotonic() + 120
        while not _replays() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _replays(), "the replay never started"
        time.sleep(3)  # into the simulator
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        proc.kill()
    deadline = time.monotonic() + 20
    while (_replays() or leftovers() - before) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _replays()
    assert not leftovers() - before


def _replays() -> list:
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmd = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
            except OSError:
                continue
            if any(c.endswith(b"tt/sim/replay.py") for c in cmd):
                found.append(int(pid))
    return found


def test_the_readme_lists_every_op_kind_the_replay_knows():
    import importlib.util
    import re

    here = REPO
    spec = importlib.util.spec_from_file_location("replay", os.path.join(here, "ttbench", "tt", "sim", "replay.py"))
    replay = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(replay)
    readme = open(os.path.join(here, "docs", "simulator.md")).read()
    listed = readme[readme.index("The op kinds the replay knows:"):]
    listed = " ".join(listed[:listed.index("\n\n")].split())
    names = set(re.findall(r"[a-z_0-9]+", listed.replace("logical_and/not/or/xor", "logical_and logical_not "
                                                                                    "logical_or logical_xor")))
    missing = sorted(k for k in replay.OPS if k not in names and k != "get_device")
    assert not missing, f"docs/simulator.md does not list {missing}"


@needs_ttsim
def test_a_bug_of_the_replay_itself_is_an_internal_error_not_ttnn_s_refusal(zoo_bringup, monkeypatch):
    b = zoo_bringup("mlp", "export", "args", tt=True)
    monkeypatch.setenv("TTBENCH_TTSIM_REPLAY_FAULT", "bug:ttnn.matmul")
    whole = b.run("ttnn", device="ttsim")
    assert not whole.executed and "internal error in ttbench's ttsim replay" in whole.message, whole.message
    assert "ttnn refused" not in whole.message
    report = b.op_by_op(device="ttsim", progress=False)
    matmuls = [r for r in report.rows if r.op == "ttnn.matmul"]
    assert matmuls and all("internal error" in r.error for r in matmuls)
    assert all(r.ok for r in report.rows if r.op != "ttnn.matmul")
    assert matmuls[0].locations == ["loader.py:14"]  # lines as every table names them, not the full path


def test_arguments_that_do_not_fit_the_program_are_refused_before_the_replay(zoo_bringup):
    import copy

    import torch

    b = copy.copy(zoo_bringup("mlp", "export", "args", tt=True))
    b.argument_values = [torch.zeros(3, 3)] + list(b.argument_values[1:])
    result = b.run("ttnn", device="ttsim")
    assert not result.executed and "argument 0 is (3, 3)" in result.message, result.message


def _squeeze_excite():
    """tests/test_tt_numbers.py's block: its ReLU fused into a 1x1 conv's conv2d_config."""
    from tests.run import test_tt_numbers as numbers

    return numbers, numbers._bringup(numbers.SqueezeExcite, 1, 3, 16, 16)


def test_a_value_changing_field_the_replay_would_drop_refuses_before_the_device_opens(no_simulator):
    from ttbench.tt.program import parse_program
    from ttbench.tt.sim.executor import replay_refusal

    numbers, b = _squeeze_excite()
    text = b.stages["ttnn"].full_text()
    assert replay_refusal(parse_program("ttnn", text)) is None  # activation and weights_dtype are handed over
    planted = text.replace("activation = <op_type = relu>", "activation = <op_type = relu>, act_scale = 2", 1)
    refused = replay_refusal(parse_program("ttnn", planted))
    assert refused and "act_scale of conv2d_config of ttnn.conv2d" in refused and "nothing is simulated" in refused


@needs_ttsim
def test_the_replay_hands_ttnn_the_fused_activation_and_runs_what_the_user_edited():
    numbers, b = _squeeze_excite()
    clean = b.run("ttnn", device="ttsim")
    assert clean.executed and clean.ok and clean.pcc >= 0.9999, clean
    wrong = numbers._edited(b, "ttnn", lambda t: t.replace("activation = <op_type = relu>",
                                                           "activation = <op_type = sigmoid>"))
    edited = wrong.run("ttnn", device="ttsim")  # the edited program, not the stage's original ops
    assert edited.executed and not edited.ok, edited
    assert abs(edited.pcc - wrong.run("ttnn", device="cpu").pcc) < 1e-3  # the simulator agrees with the interpreter
