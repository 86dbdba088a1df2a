"""The Tenstorrent compiler's optimization levels: what level 2 changes in the program (placement read from its
layouts), that the numbers hold where ttbench can vouch for them, and that they are refused where it cannot."""
import json
import types

import pytest
import torch

import ttbench as tb
from ttbench.core import BadInput
from ttbench.fleet.sweep import level_row, run_job
from ttbench.fleet.track.page import architecture_table, level_cell, model_rows
from ttbench.render.model_explorer import explorer_files
from tests.cli_runner import run_cli


class TinyConv(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 16, 3, padding=1)
        self.c2 = torch.nn.Conv2d(16, 16, 3, padding=1)

    def forward(self, x):
        return torch.relu(self.c2(torch.relu(self.c1(x))))


def test_a_level_the_compiler_has_not_or_without_the_compiler_is_refused_before_any_work():
    m, x = tb.models.load("mlp")
    for level in (3, -1, "2", True):
        with pytest.raises(BadInput, match="opt_level is one of 0, 1, 2"):
            tb.bringup(m, x, opt_level=level)
    with pytest.raises(BadInput, match="needs tt=True"):
        tb.bringup(m, x, opt_level=2, tt=False)
    done = run_cli("bringup", "mlp", "--no-tt", "--opt-level", "2")
    assert done.returncode == 2 and "--opt-level, --memory," in done.stderr
    assert "--drift need the Tenstorrent stages" in done.stderr
    done = run_cli("bringup", "mlp", "--bound")
    assert done.returncode == 2 and "--bound uses the compiler's perf metrics" in done.stderr
    for levels in ((0, 0), (0, 3), 2, (0, 1, 2)):
        with pytest.raises(BadInput, match="levels is two different optimization levels"):
            tb.compare_levels(m, x, levels=levels)
    done = run_cli("bringup", "mlp", "--against-level", "0")
    assert done.returncode == 2 and "--against-level compares two levels: give --opt-level too" in done.stderr
    done = run_cli("bringup", "mlp", "--opt-level", "2", "--run", "tt")
    assert done.returncode == 2 and "--run tt compiles again at the compiler's default level 0" in done.stderr


def test_work_that_compiles_again_at_level_0_is_refused_on_a_bringup_at_another_level():
    from ttbench.core import Stage
    from ttbench.pipeline import Bringup

    ttnn = Stage(name="ttnn", ok=True, meta={"optimization_level": 2})
    b = Bringup(model_name="m", frontend="export", params="args", stages={"ttnn": ttnn})
    for call in (lambda: b.run("ttnn", device="tt"), lambda: b.op_by_op(device="tt"),
                 lambda: b.first_failing_op("ttnn")):
        with pytest.raises(BadInput, match="compiled at opt_level=2: its results would be another program's"):
            call()


@pytest.mark.tt
def test_mlp_at_level_2_is_sharded_into_l1_and_its_numbers_hold(zoo_bringup):
    m, x = tb.models.load("mlp")
    optimized = tb.bringup(m, x, opt_level=2, name="mlp", progress=False)
    plain = zoo_bringup("mlp", tt=True)
    assert optimized.ok and optimized.stages["ttnn"].meta["optimization_level"] == 2
    assert plain.stages["ttnn"].meta["optimization_level"] == 0
    level2, level0 = optimized.placement(), plain.placement()
    assert level2.optimization_level == 2 and level2.sharded >= 10 and level2.in_l1 >= level2.sharded
    assert level0.sharded == 0 and level0.in_l1 == 0 and not level0.unread and not level2.unread
    assert set(level0.counts()) <= {"DRAM interleaved", "host"}
    sharded = next(p for p in level2.ops if p.memory_layout.endswith("_sharded"))
    assert sharded.buffer == "l1" and sharded.placement.startswith("L1 ") and sharded.location  # by source line
    assert "in L1" in level2.summary() and "_sharded" in level2.summary()
    metrics = json.loads(optimized.stages["ttnn"].artifacts["perf_metrics.json"])
    assert metrics["summary"]["sharded_ops"] >= 10  # the compiler's own count agrees it sharded
    for b in (optimized, plain):  # the interpreter runs both programs; the optimizer moved data, not values
        r = b.run("ttnn", device="cpu")
        assert r.ok and r.pcc >= 0.999, r.message
    compiler = optimized.compiler_metrics()  # the compiler's own per-op figures, tied to the program's lines
    assert compiler.unmatched == 0 and sum(bool(op.sharded) for op in compiler.ops) == \
        metrics["summary"]["sharded_ops"]
    assert {op.location for op in compiler.ops} == {"loader.py:14", "loader.py:15", "loader.py:16"}
    assert all(op.op == optimized.stages["ttnn"].ops[op.index].name for op in compiler.ops)
    matmuls = [op for op in compiler.ops if op.flops]
    assert len(matmuls) == 3 and all(op.flops_agree for op in matmuls)  # its FLOPs = ttbench's from the types
    assert compiler.by_line()["loader.py:15"]["flops"] == 2 * 4 * 64 * 64  # fc2: 4x64 @ (64x64)^T
    assert "shardable ops sharded" in compiler.summary() and "by source line" in compiler._repr_html_()
    bound = optimized.time_bound()
    fc1 = next(op for op in bound.ops if op.op == "ttnn.matmul")  # mlp's first Linear: 4x32 @ (64x32)^T
    peak = metrics["flops"]["peak_flops_per_sec_by_fidelity"].get(fc1.fidelity) or \
        metrics["flops"]["peak_flops_per_sec"]  # its compute_config's fidelity, else the compiler's stated peak
    assert fc1.flops == 2 * 4 * 64 * 32 and fc1.compute_s == fc1.flops / peak  # by hand
    assert bound.total_s > 0 and "ideal-time bound" in bound.summary() and "not a measurement" in bound.summary()
    assert sum(op.flops for op in bound.ops if op.op == "ttnn.matmul") == metrics["flops"]["total_flops"]
    with pytest.raises(BadInput, match="opt_level=0, 1 or 2"):  # no level asked for: no compiler figures
        plain.time_bound()
    files = explorer_files(optimized)  # placement and the bound as Model Explorer overlays on the TTNN graph
    placed = json.loads(files["explorer/ttnn.placement.json"])["ttnn"]
    assert "width_sharded" in placed["name"] and "level 2" in placed["name"]
    assert placed["results"][str(sharded.index)]["value"] >= 3  # one of the sharded places
    bounds = json.loads(files["explorer/ttnn.bound.json"])["ttnn"]
    assert bounds["results"][str(fc1.index)]["value"] == round(fc1.bound_s * 1e6, 4) and "not a measurement" in \
        bounds["name"]
    level0_files = explorer_files(plain)  # every tensor in DRAM, and no level asked for: no compiler figures
    assert {v["value"] for v in json.loads(level0_files["explorer/ttnn.placement.json"])["ttnn"]["results"].values()} \
        <= {0, 1} and "explorer/ttnn.bound.json" not in level0_files
    sharded_memory, plain_memory = optimized.memory(), plain.memory()
    assert sharded_memory.fits and plain_memory.fits and "fits: peak L1" in sharded_memory.verdict()
    assert sharded_memory.peak_l1.l1_per_core > 0 and plain_memory.peak_l1.l1_per_core == 0  # level 0: all DRAM
    assert plain_memory.peak_dram.dram_weights > 0  # mlp's weights, made once by const-eval, stay in DRAM
    assert plain_memory.chip["arch"] == "blackhole" and plain_memory.chip["l1_per_core"] > 2**20


@pytest.mark.tt
def test_a_conv_at_level_2_is_sharded_and_comparing_the_levels_says_what_changed_and_that_the_numbers_held():
    torch.manual_seed(0)
    levels = tb.compare_levels(TinyConv(), (torch.randn(1, 3, 16, 16),), levels=(0, 2), name="tiny_conv",
                               progress=False)
    assert levels.levels == (0, 2) and not levels.errors
    # the optimizer prepares the weights in const-eval (level 0 hands the conv OIHW), which the interpreter lays
    # out as ttnn does: both programs run against PyTorch
    assert levels.numbers_held is True, levels.numbers_line()
    assert all(run.pcc >= 0.999 and "interpreter" in run.produced_by for run in levels.runs)
    conv_lines = [line for line in levels.changed() if "ttnn.prepare_conv2d_weights" in line.added()]
    assert conv_lines and all(line.location.startswith("test_opt_level.py") for line in conv_lines)
    assert any("_sharded" in label for line in levels.lines for label in line.placements[1])
    assert not any("_sharded" in label for line in levels.lines for label in line.placements[0])
    assert all(bound > 0 for bound in levels.bounds_s)  # a level given: the compiler's metrics at both
    assert "numbers held" in levels.summary() and "prepare_conv2d_weights" in levels.summary()
    page = levels._repr_html_()
    assert "source lines changed" in page and "L1 " in page


@pytest.mark.tt
def test_the_cli_says_the_level_where_the_optimizer_put_the_results_and_what_fits(tmp_path):
    done = run_cli("bringup", "mlp", "--opt-level", "2", "--memory", "--bound", "--against-level", "0",
                   "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert "mlp ttnn level 0 -> level 2" in done.stdout and "numbers held" in done.stdout
    saved = json.loads((tmp_path / "out" / "levels.json").read_text())
    assert saved["levels"] == [0, 2] and saved["numbers_held"] is True
    assert any("L1 width_sharded" in label for line in saved["lines"] for label in line["placements"][1])
    assert "opt_level=2" in done.stdout and "ttnn at optimization level 2" in done.stdout
    assert "L1 width_sharded" in done.stdout and "on blackhole: fits: peak L1" in done.stdout
    assert "ideal-time bound" in done.stdout and "not a measurement" in done.stdout


@pytest.mark.tt
def test_a_failure_only_the_optimizer_hits_says_that_level_0_compiles():
    # jax-tt-plugin 0.1.3: at level 1 the optimizer validates each ttnn.constant against the device and refuses
    # an inlined weight's resource ("Unsupported ElementsAttr type"); level 0 compiles the same module.
    m, x = tb.models.load("mlp")
    b = tb.bringup(m, x, params="inline", opt_level=1, name="mlp", progress=False)
    ttir, ttnn = b.stages["ttir"], b.stages["ttnn"]
    assert ttir.ok and not ttnn.ok and not ttnn.meta.get("internal_error")
    assert "compiles at level 0, fails at level 1 (the compiler's optimizer)" in ttnn.error
    assert "ttnn.constant" in ttnn.error and "loader.py" in ttnn.error  # the op and the model's line
    cell = level_cell(level_row(b, run=False))  # the tracker's level column says so too
    assert cell.startswith("fails: ") and "compiles at level 0, fails at level 1" in cell


@pytest.mark.tt
def test_the_trackers_level_column_says_what_the_optimizer_sharded_and_the_programs_pcc():
    row = run_job("mlp", "export", tt=True, run=True, programs=True, opt_level=2)
    level = row["level"]
    assert level["level"] == 2 and level["ok"] and level["sharded"] >= 10 and level["pcc"] >= 0.999, level
    table = architecture_table(model_rows(types.SimpleNamespace(rows=[row], groups=[])), error_chars=100)
    header, rows = table.header, table.rows
    cell = rows[0][header.index("ttnn level 2")]
    assert cell == f"{level['sharded']} of {level['results']} results sharded; pcc {level['pcc']:.6f}"
    header = architecture_table(model_rows(types.SimpleNamespace(rows=[{**row, "level": None}], groups=[])), 100).header
    assert not any(h.startswith("ttnn level") for h in header)  # no level asked for: no column


class Huge(torch.nn.Module):
    """A weight of 65536 x 131072 f32 (32 GiB) on the meta device: more than a P150's DRAM, never made."""

    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(65536, 131072, bias=False)

    def forward(self, x):
        return self.proj(x)


@pytest.mark.tt
def test_a_weight_larger_than_the_chips_dram_gets_a_verdict_naming_the_first_op_that_does_not_fit():
    with torch.device("meta"):
        model = Huge()
    b = tb.bringup(model, (torch.randn(1, 65536),), name="huge", progress=False)
    assert b.ok, b.failed_stage
    report = b.memory()
    row, kind, over = report.first_overflow
    assert report.fits is False and kind == "DRAM" and over > 0
    assert row.dram_weights >= 65536 * 131072 * 4  # the weight, tile-padded, counted as a weight
    assert report.verdict().startswith(f"does not fit: {row.op} #{row.index}") and "of DRAM" in report.verdict()
    assert "over the blackhole's 31.8 GiB" in report.verdict()


_LLM_MEMORY = """
import json, resource, time
import ttbench as tb
start = time.perf_counter()
model, inputs = tb.models.load("llama_8b")  # built on meta: shapes only
report = tb.bringup(model, inputs, name="llama_8b", progress=False).memory()
peak = report.peak_dram
print(json.dumps({"seconds": time.perf_counter() - start, "fits": report.fits, "weights": peak.dram_weights,
                  "location": peak.location, "summary": report.summary(),
                  "rss_kib": max(resource.getrusage(who).ru_maxrss
                                 for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))}))
"""


@pytest.mark.tt
@pytest.mark.slow
@pytest.mark.subprocess
def test_an_8b_llm_on_meta_weights_gets_a_dram_verdict_in_two_minutes_and_4_gb():
    import subprocess
    import sys

    from tests.paths import REPO

    done = subprocess.run([sys.executable, "-c", _LLM_MEMORY], capture_output=True, text=True, cwd=REPO,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["seconds"] < 120 and found["rss_kib"] < 4 * 2**20, found  # the largest process, peak
    assert found["fits"] is not None and found["weights"] > 28 * 2**30  # 8e9 f32 weights, counted, never made
    assert "peak DRAM" in found["summary"] and found["location"]  # where, by source line
