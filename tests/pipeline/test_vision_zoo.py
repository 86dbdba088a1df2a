"""timm and torchvision beside the transformers zoo (issue 43): entries that bring up like zoo models, from a
torchvision that imports soundly under the CPU torch."""
import json
import subprocess
import sys

import pytest
import torch

import ttbench as tb
from ttbench import vision_zoo

TIMM_SAMPLE = ("timm/mobilenetv3", "timm/convnext", "timm/efficientvit_msra", "timm/deit", "timm/ghostnet")
# classification, a detector's backbone (several feature maps; the FPNs hit torch-mlir's upsample_nearest2d.vec
# limit), segmentation (a dict of outputs)
TORCHVISION_SAMPLE = ("torchvision/squeezenet1_1", "torchvision/ssdlite320_mobilenet_v3_large",
                      "torchvision/lraspp_mobilenet_v3_large")


def test_the_vision_zoos_list_one_entry_per_timm_family_and_every_torchvision_kind():
    names = vision_zoo.entries()
    timm = [n for n in names if n.startswith("timm/")]
    kinds = set(vision_zoo.torchvision_models().values())
    assert len(timm) >= 90 and len(names) >= 200 and kinds == set(vision_zoo.TORCHVISION_KINDS)
    assert vision_zoo.timm_families()["convnext"] == "convnext_atto"  # the family's smallest-sounding model
    assert all(tb.models.known(n) for n in names[:5]) and not tb.models.known("timm/no_such_family")


@pytest.mark.parametrize("name", TIMM_SAMPLE + TORCHVISION_SAMPLE)
def test_a_vision_entry_brings_up_like_a_zoo_model(name):
    model, inputs = tb.models.load(name)
    with torch.no_grad():
        outputs = model(*inputs)
    assert isinstance(outputs, tuple) and all(isinstance(o, torch.Tensor) for o in outputs)
    b = tb.bringup(model, inputs, tt=False, name=name)
    assert b.ok, b.table()
    result = b.run("stablehlo", device="cpu")
    assert result.ok and result.pcc > 0.999, result.message


@pytest.mark.subprocess
def test_the_cli_takes_a_vision_entry_wherever_a_zoo_name_goes(tmp_path):
    r = subprocess.run([sys.executable, "-m", "ttbench.cli", "bringup", "torchvision/squeezenet1_1", "--no-tt",
                        "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (tmp_path / "out" / "stablehlo.mlir").is_file()
    r = subprocess.run([sys.executable, "-m", "ttbench.cli", "bringup", "timm/no_such_family", "--no-tt"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 2 and "unknown timm entry 'timm/no_such_family'" in r.stderr, r.stderr
    listed = subprocess.run([sys.executable, "-m", "ttbench.cli", "models", "--vision"], capture_output=True,
                            text=True, timeout=600)
    assert listed.returncode == 0 and "timm/resnet" in listed.stdout and "torchvision/raft_small" in listed.stdout


@pytest.mark.subprocess
def test_the_trackers_bare_route_builds_a_vision_entry_with_upstream_packages_only(tmp_path):
    """A failing vision job is triaged like a transformers one: the same model through torch.export and torch-mlir
    in a fresh interpreter that never imports ttbench (its torchvision import made sound the same way)."""
    from ttbench.fleet.track import triage

    path = triage.write_bare_script("timm/convnext", "export", str(tmp_path), False, "?", "?")
    code = open(path).read()
    assert "import ttbench" not in code and "from ttbench" not in code
    run = triage.run_script(path, triage.BARE_TIMEOUT_S, False)
    assert run.passed and run.reached == "stablehlo", run.error
