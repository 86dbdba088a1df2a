import os
import sys

import pytest
import torch

import ttbench as tb
from ttbench import optional

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))


def _cache_bringups():
    cache = {}

    def get(model, frontend="export", params="args", tt=False):
        key = (model, frontend, params, tt)
        if key not in cache:
            m, x = tb.models.load(model)
            cache[key] = tb.bringup(m, x, frontend=frontend, params=params, tt=tt, name=model)
        return cache[key]

    return get


@pytest.fixture(scope="session")
def zoo_bringup():
    """Bring zoo models up once per test session: (model, frontend, params, tt) -> Bringup."""
    return _cache_bringups()


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(0)


# Test tiers (issue 27): every test carries the marks of what it needs, so `make test-fast` can leave the slow
# parts out while `make test` runs everything. Marked by file: each file's tests share what they drive.
TIER_FILES = {
    "browser": {"test_browser.py", "test_model_explorer.py"},  # Debian's chromium through Playwright
    "tt": {"test_tt.py", "test_interp.py", "test_llm.py", "test_op_by_op.py"},  # TT compiles are their subject
    "subprocess": {"test_sweep.py", "test_conformance.py", "test_hostile.py", "test_proc.py"},
}


def pytest_collection_modifyitems(config, items):
    plugin = optional.tt_plugin()
    for item in items:
        needs_tt = item.get_closest_marker("tt") is not None  # marked by hand: its assertions need the compiler
        name = item.path.name
        if name.endswith(".ipynb"):
            item.add_marker(pytest.mark.notebook)
        for mark, files in TIER_FILES.items():
            if name in files:
                item.add_marker(getattr(pytest.mark, mark))
        if needs_tt and not plugin.available:  # as on a machine without the plugin
            item.add_marker(pytest.mark.skip(reason=f"needs the Tenstorrent compiler: {plugin.hint}"))
