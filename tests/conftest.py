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


# Test tiers: every test carries the marks of what it needs (`pytestmark` at the top of a file whose tests all
# share it, a decorator on one test otherwise), so `make test-fast` can leave the slow parts out while `make test`
# runs everything. A test of the compiler's programs is marked tt; the interpreter's handlers on handwritten
# programs (tests/tt/interp/test_handlers.py) need no compiler and run in the fast tier.
def pytest_collection_modifyitems(config, items):
    plugin = optional.tt_plugin()
    for item in items:
        needs_tt = item.get_closest_marker("tt") is not None  # marked by hand: its assertions need the compiler
        if item.path.name.endswith(".ipynb"):
            item.add_marker(pytest.mark.notebook)
        if needs_tt and not plugin.available:  # as on a machine without the plugin
            item.add_marker(pytest.mark.skip(reason=f"needs the Tenstorrent compiler: {plugin.hint}"))
