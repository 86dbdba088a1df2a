"""Kept stages: what a tracker job made up to StableHLO (its module, its arguments and their values, the golden and
the row's facts of those stages), kept beside the results database so that a job whose stages up to StableHLO
are unchanged — only the packages of the TT stages moved, a new TT plugin being the nightly case — reruns from the
TT compile on (sweep.run_job), not from the export.

A folder per job, named by its fingerprint over the stages up to StableHLO (carry_over.kept_fingerprint: ttbench's
code, torch, torch-mlir, jax, the model's packages and files, the job's options), so a kept folder is only ever
read for the very stages that made it. It is written whole or not at all (made aside, renamed into place), and a
complete run removes the folders none of its jobs can use any more (prune)."""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from typing import Optional

from ..core import ArgInfo, StageName

MODULE_FILE = "stablehlo.mlirbc"
VALUES_FILE = "values.pt"  # argument values and golden outputs (torch.save, read back weights_only)
FACTS_FILE = "facts.json"  # written last: a folder without it is not a kept job
# A job whose argument values and golden outputs are larger is run whole again: the kept folders of one run of the
# tracker stay a few GB (most shrunk architectures keep 5-60 MB)
MAX_BYTES = 256 << 20


def root_for(db_path: str) -> str:
    """Where the kept stages of a results database's jobs live: beside it."""
    return os.path.abspath(db_path) + ".kept"


def folder(root: str, fingerprint: str) -> str:
    return os.path.join(root, fingerprint)


def complete(path: Optional[str]) -> bool:
    return bool(path) and os.path.isfile(os.path.join(path, FACTS_FILE))


@dataclass
class Kept:
    """A job's stages up to StableHLO, read back."""

    stablehlo: object  # its Stage, over a live module parsed from the kept bytecode
    arguments: list
    argument_values: list
    golden: list  # numpy arrays, in output order
    row: dict  # the job's row facts of those stages (the row of the job that kept them)


def keep(path: str, b, row: dict, golden: list) -> None:
    """Keep `b`'s StableHLO stage, arguments and golden, and the facts of `row` up to StableHLO, under `path`
    (nothing when it is already there: another job of the same fingerprint kept it)."""
    import torch

    from ..io.arrays import from_numpy  # lazy: imports torch (the sweep's parent never needs it)
    from ..stages.mlir_stage import bytecode  # lazy: the job process alone reads MLIR

    if complete(path):
        return
    parent = os.path.dirname(path)
    os.makedirs(parent, exist_ok=True)
    aside = tempfile.mkdtemp(prefix=f".{os.path.basename(path)}.", dir=parent)
    try:
        stage = b.stages[StageName.STABLEHLO]
        with open(os.path.join(aside, MODULE_FILE), "wb") as f:
            f.write(bytecode(stage.module))
        torch.save({"argument_values": [v.detach().clone() for v in b.argument_values],
                    "golden": [from_numpy(g) for g in golden]}, os.path.join(aside, VALUES_FILE))
        facts = {"arguments": [[a.name, a.role.value, list(a.shape), a.dtype] for a in b.arguments],
                 "stablehlo_seconds": stage.seconds, "row": row}
        with open(os.path.join(aside, FACTS_FILE), "w") as f:
            json.dump(facts, f, default=str)
        os.rename(aside, path)  # whole or not at all
    except BaseException as exc:
        shutil.rmtree(aside, ignore_errors=True)
        if not (isinstance(exc, OSError) and complete(path)):  # a folder there already: a twin job's, it wins
            raise


class Unreadable(Exception):
    """A kept folder that does not read back (a damaged file, a torch that reads it no more): it is removed, and the
    job runs whole."""


def load(path: str) -> Kept:
    import torch

    from ..io.arrays import to_numpy  # lazy: imports torch (the sweep's parent never needs it)
    from ..stages.stablehlo import stage_from_bytecode  # lazy: the job process alone reads MLIR

    try:
        with open(os.path.join(path, FACTS_FILE)) as f:
            facts = json.load(f)
        with open(os.path.join(path, MODULE_FILE), "rb") as f:
            stage = stage_from_bytecode(f.read(), facts["stablehlo_seconds"])
        values = torch.load(os.path.join(path, VALUES_FILE), weights_only=True)
    except Exception as exc:
        shutil.rmtree(path, ignore_errors=True)
        raise Unreadable(f"its kept stages up to StableHLO did not read back ({type(exc).__name__}: "
                         f"{str(exc)[:200]}): it ran whole") from exc
    arguments = [ArgInfo(name, role, tuple(shape), dtype) for name, role, shape, dtype in facts["arguments"]]
    return Kept(stablehlo=stage, arguments=arguments, argument_values=values["argument_values"],
                golden=[to_numpy(g) for g in values["golden"]], row=facts["row"])


def prune(root: str, used: set) -> int:
    """Remove the kept folders under `root` whose fingerprint is not in `used` (and any left half-made by a job
    that died while keeping); -> how many."""
    removed = 0
    with contextlib.suppress(FileNotFoundError):
        for name in os.listdir(root):
            path = os.path.join(root, name)
            if name not in used and os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
                removed += 1
    return removed
