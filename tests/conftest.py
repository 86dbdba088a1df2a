import os
import sys

import pytest
import torch

import ttbench as tb

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
