"""Triage of the tracker's failures: ours or upstream, grouped by root cause, one reproduction per group.

Each failed job is run again through the bare route — the same model through torch.export, torch-mlir and the
Tenstorrent plugin alone, as a script that never imports ttbench (scripts.py), in a fresh process:

    upstream  the bare route fails at the stage where ttbench failed (the message is compared too)
    ours      the bare route gets past that stage, or ttbench itself raised an internal error
    unknown   no bare route for this job (the dynamo frontend, a model of ttbench's own zoo), or it stopped before
              that stage

The bare route exists for the transformers zoo (the default config with the shrink's changes) and the vision zoos
(timm's create_model, torchvision's get_model).

Failures are grouped by (verdict, stage, op, message with its numbers, names and paths blanked). Each group gets one
reproduction, checked by running it in a fresh process: the failing op alone (found op by op: the op that fails
there with the same message) as a few lines of torch + torch-mlir, or its StableHLO + the plugin for a Tenstorrent
stage; where no op alone fails the same way, the model-level bare script is the reproduction. A group whose
reproduction did not fail the same way says so. A failure of the CPU run (wrong numbers) has no bare-route step yet:
it stays unknown.
"""
from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Optional

from ... import hf_zoo, models, vision_zoo
from ...core import INTERNAL_ERROR, PCC_STAGES
from ...io.atomic import write_text_atomic
from ...optional import versions
from ...proc import zygote
from ...proc.children import run_once, watch_parent
from .scripts import BARE_STEPS, hf_model_script, op_script, vision_model_script

BARE_TIMEOUT_S = 300.0
# What the triage's zygote imports before it forks each bare script of the export route: what every such script
# imports first itself (~4 s of a bare run here), nothing more (transformers, timm, torchvision: only some scripts
# import them, and whether one is there changes what the others find).
BARE_PRELOAD = ["torch", "torch_mlir.fx", "torch_mlir.extras.fx_decomp_util"]
REPRO_TIMEOUT_S = 600.0
TT_STAGES = ("ttir", "ttnn", "flatbuffer", "tt")
_OP_NAMED = re.compile(r"\b((?:stablehlo|ttir|ttnn)\.[a-z_0-9]+)")


@dataclass
class BareRun:
    """How far the bare route got, and the upstream tool's own error."""
    reached: Optional[str]  # the last step it started (BARE_STEPS), None when it did not start
    passed: bool  # every step it has went through
    error: str = ""
    seconds: float = 0.0


@dataclass
class Group:
    verdict: str  # "ours" | "upstream" | "unknown"
    stage: str
    op: str
    message: str  # normalised: numbers, names and paths blanked
    jobs: list = field(default_factory=list)  # "hf/bert/export"
    example: str = ""  # the first job's own error, as it read
    why: str = ""  # how the verdict was reached
    repro: Optional[str] = None  # the reproduction's folder, relative to the repro root
    repro_file: Optional[str] = None  # its script or IR to open first, relative to the repro root
    reproduces: Optional[bool] = None  # the reproduction, run fresh, failed at the stage with the same message
    repro_note: str = ""


def bare_step(stage: Optional[str]) -> Optional[str]:
    """ttbench's stage -> the bare route's step that does the same work."""
    if stage in TT_STAGES:
        return "tt"
    return stage if stage in BARE_STEPS else None


def normalise(message: str, limit: Optional[int] = 200) -> str:
    """A failure's message with what differs between models blanked: install paths, value names, numbers; cut to
    `limit` characters (None: whole)."""
    text = _ANSI.sub("", hf_zoo.INSTALL_PATH.sub("", message or "")).strip()
    text = re.sub(r"\bat [^\s]+:\d+", "at <file>", text)
    text = re.sub(r"%[\w.#-]+", "%v", text)
    text = re.sub(r"0x[0-9a-fA-F]+", "N", text)
    text = re.sub(r"\d+", "N", text)
    return re.sub(r"\s+", " ", text)[:limit]


def failing_op(message: str) -> str:
    """The op a message names: an aten op first (torch-mlir's 'torch.operator' wraps one), then the op an MLIR
    "failed to legalize operation 'X'" or the ONNX exporter's "OpOverload(op='X'" names, then a StableHLO/TTIR/
    TTNN op."""
    aten = re.search(r"\b(?:torch\.)?(aten\.[A-Za-z_0-9]+(?:\.[A-Za-z_0-9]+)?)", message or "")
    if aten:
        return aten.group(1)
    legalize = re.search(r"operation '([\w.]+)'|OpOverload\(op='([\w.]+)'", message or "")
    if legalize:
        return legalize.group(1) or legalize.group(2)
    found = _OP_NAMED.search(message or "")
    return found.group(1) if found else ""


def last_error(stderr: str) -> str:
    """The exception line a Python traceback ends with (the upstream tool's own words), install paths blanked;
    where it only announces diagnostics ("... failed with the following diagnostics:"), the first MLIR
    diagnostic's error is the message."""
    lines = [l for l in stderr.splitlines() if l.strip()]
    raised = [l.strip() for l in lines if not l.startswith((" ", "\t"))
              and re.match(r"^[\w.]+(Error|Exception|Failure)\b|^[\w.]+: ", l)]
    # a chained traceback prints its root cause first (the ONNX exporter's banner wraps the op it had no function for)
    chained = "direct cause of the following exception" in stderr
    found = (raised[0] if chained else raised[-1]) if raised else (lines[-1].strip() if lines else "")
    if found.endswith(":"):
        diagnostic = next((m.group(1) for m in map(_DIAGNOSTIC.search, lines) if m), None)
        if diagnostic:
            found = f"{found.split(':', 1)[0]}: {diagnostic.strip()}"
    return hf_zoo.INSTALL_PATH.sub("", found)[:400]


_DIAGNOSTIC = re.compile(r"\berror: (.+)")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run_script(path: str, timeout: float, tt: bool, forked: bool = False) -> BareRun:
    """The script in a fresh interpreter (-I: no ttbench on its path but what the venv installs), with the
    plugin's compile-only settings and lock when it compiles for Tenstorrent. `forked` (an export-route script
    that stops before the plugin): forked from the triage's zygote where one runs (BARE_PRELOAD), as fresh
    otherwise."""
    path = os.path.abspath(path)  # it runs in its own folder
    if tt:
        from ...tt import plugin  # lazy: only TT scripts need the descriptor and the lock

        done = plugin.run_script(path, timeout)
        if done is None:
            return BareRun(None, False, f"the Tenstorrent plugin stayed busy for {timeout:g} s")
    elif forked:
        done = zygote.run_path(path, timeout, dict(os.environ))
    else:
        done = run_once([sys.executable, "-I", path], timeout, cwd=os.path.dirname(path))
    steps = [l.split(" ", 1)[1].strip() for l in done.stdout.splitlines() if l.startswith("stage ")]
    reached = steps[-1] if steps else None
    if done.timed_out:
        return BareRun(reached, False, f"timed out after {timeout:g} s", done.seconds)
    if done.returncode == 0:
        return BareRun(reached, True, "", done.seconds)
    error = last_error(done.stderr) or f"exit {done.returncode}"
    return BareRun(reached, False, error, done.seconds)


def wrong_numbers_only(row: dict) -> bool:
    """Every stage compiled and StableHLO ran right, and a TT program ran and did not match: an incorrect result
    (row["incorrect"]), grouped and reproduced as one."""
    return bool(row.get("incorrect")) and not row.get("failed_stage") and row.get("run_ok") is not False


def verdict(row: dict, bare: Optional[BareRun]) -> tuple:
    """(verdict, why) for one failed row. An incorrect result (a TT program that runs and does not match) has no
    bare route: its verdict is "unknown" until a chip or the simulator gives a second reading, and why says where
    the numbers first go wrong."""
    error = row.get("error") or ""
    if wrong_numbers_only(row):
        return "unknown", row["incorrect"]["verdict"]
    if "InternalError" in error or "bug in ttbench" in error or INTERNAL_ERROR in error:
        return "ours", "ttbench raised an internal error"
    step = bare_step(row.get("failed_stage"))
    if bare is None:
        return "unknown", f"no bare route for {row['model']}/{row['frontend']}"
    if step is None:
        return "unknown", f"the failure ({row.get('failed_stage') or 'the run'}) has no bare-route step to compare"
    if bare.passed or BARE_STEPS.index(bare.reached or "build") > BARE_STEPS.index(step):
        return "ours", f"the bare route gets past {step}"
    if bare.reached == step:
        same = same_message(bare.error, error)
        return "upstream", f"the bare route fails at {step} too" + (
            ", with the same message" if same else f", with another message: {bare.error[:200]}")
    return "unknown", f"the bare route stops earlier, at {bare.reached}: {bare.error[:200]}"


def group_rows(rows: list) -> list:
    """Failed rows (each with "verdict", "why") -> Groups, largest first."""
    groups: dict = {}
    for row in rows:
        stage = row.get("failed_stage") or ("run" if row.get("run_ok") is False else "?")
        error = row.get("error") or ""
        op = failing_op(error)
        key = (row["verdict"], stage, op, normalise(error))
        if wrong_numbers_only(row):
            wrong = row["incorrect"]
            # grouped by where the numbers first go wrong: the stage pair, the op kind and its source line
            stage, op = wrong["stage"], wrong.get("op") or ""
            pcc = "unknown" if wrong.get("pcc") is None else f"{wrong['pcc']:.6f}"
            error = (f"incorrect result: {wrong['stage']} pcc {pcc}; " + (
                f"first divergence from {wrong['earlier']} at {op}{' ' + wrong['part'] if wrong.get('part') else ''}"
                f" ({wrong['location'] or 'no source line'})" if op else wrong["verdict"]))
            key = (row["verdict"], stage, op, f"incorrect result: {wrong.get('earlier')} -> {stage} at {op} "
                                               f"{wrong.get('location', '')}" if op else normalise(error))
        g = groups.get(key)
        if g is None:
            g = groups[key] = Group(row["verdict"], stage, op, key[3], example=error[:400], why=row["why"])
        g.jobs.append(f"{row['model']}/{row['frontend']}")
    return sorted(groups.values(), key=lambda g: (-len(g.jobs), g.verdict, g.stage, g.message))


# --- the bare route and reproductions, per job ------------------------------------------------------------------

def _hf_arch(model: str) -> Optional[str]:
    return model[len(hf_zoo.PREFIX):] if model.startswith(hf_zoo.PREFIX) else None


def write_bare_script(model: str, frontend: str, folder: str, tt: bool, stage: str = "?",
                      error: str = "?") -> Optional[str]:
    """The model-level bare-route script into `folder` (bare.py); None where there is none (see module doc), or
    where ttbench cannot build the model (the script is written from the built model's inputs)."""
    arch = _hf_arch(model)
    if frontend not in ("export", "onnx"):
        return None
    if model.startswith(vision_zoo.PREFIXES):
        try:
            _, inputs = vision_zoo.load(model)
        except Exception:  # noqa: BLE001 - the job's own row already says how the build failed
            return None
        text = vision_model_script(model, inputs, tt, _versions(), stage, error, frontend)
        return write_text_atomic(os.path.join(folder, "bare.py"), text)
    if arch is None:
        return None
    try:
        model_obj, inputs = hf_zoo.load(arch)
    except Exception:  # noqa: BLE001 - as above
        return None
    text = hf_model_script(arch, hf_zoo.shrink_changes(arch), dict(zip(model_obj.names, inputs)), tt, _versions(),
                           stage, error, frontend)
    return write_text_atomic(os.path.join(folder, "bare.py"), text)


def _versions() -> dict:
    v = versions()
    return {k: v.get(k) for k in ("torch", "torch-mlir", "transformers", "timm", "torchvision", "jax", "tt-plugin")}


def op_repro(b, stage: str, error: str, folder: str, timeout: float = 60.0) -> Optional[dict]:
    """The first op of bringup `b` that fails alone at `stage` (op by op: on the CPU for torch-mlir's stages,
    through the plugin for Tenstorrent's) as a script in `folder` (repro.py, and op.stablehlo.mlir for a
    Tenstorrent stage) -> {"op", "script", "error"}, or None when no op alone fails there, or it has no script.
    Of the ops that fail there, the first whose message is `error`'s, else the first."""
    from ...run.op_by_op import op_by_op  # lazy: imports torch
    from ...run.whole import pjrt_text  # lazy: imports torch

    if b.fx_graph is None:
        return None
    tt = bare_step(stage) == "tt"
    texts: dict = {}

    def keep_text(text, op, node_name):  # each op's StableHLO as the plugin gets it, by FX node
        texts[node_name] = pjrt_text(text)
        return text

    # every op, not only up to the first failure: an op that runs but differs (or fails elsewhere) may come first.
    # A torch-mlir stage's failure is an op that does not lower: the ops are lowered, not run (running them was a
    # quarter of hf/afmoe's op search, 2.3 of 8.4 s, and grows with the activations)
    report = op_by_op(b, device="tt" if tt else "cpu", progress=False, timeout=timeout,
                      transform=keep_text if tt else None, lower_only=not tt)
    failed = [r for r in report.failed() if r.furthest_stage in _reached_before(stage)]
    if not failed:
        return None
    row = next((r for r in failed if same_message(r.error or "", error)), failed[0])
    nodes = {n.name: n for n in b.fx_graph.graph.nodes}
    node = nodes.get(row.nodes[0]) if row.nodes else None
    if node is None:
        return None
    mlir = None
    if tt:
        text = texts.get(node.name)
        if text is None:
            return None
        mlir = "op.stablehlo.mlir"
        write_text_atomic(os.path.join(folder, mlir), text)
    script = op_script(node, stage, shown(row.error or error), _versions(), mlir)
    if script is None:
        return None
    write_text_atomic(os.path.join(folder, "repro.py"), script)
    return {"op": row.op, "script": "repro.py", "error": shown(row.error or "")}


def _reached_before(stage: str) -> tuple:
    """The op-by-op furthest stages of an op that failed at `stage` (it got to the stage before)."""
    return {"torchfx": ("fx",), "stablehlo": ("torchfx",)}.get(stage, PCC_STAGES)


def same_failure(run: BareRun, stage: str, message: str) -> bool:
    """Whether a script's run failed at `stage` the way `message` says (see same_message)."""
    return not run.passed and run.reached == bare_step(stage) and same_message(run.error, message)


def same_message(one: str, other: str) -> bool:
    """Two failures' messages say the same: the same opening phrase, once blanked and past exception-type and
    stage prefixes, up to where the tools differ in what they add (ttbench names the source line and pass
    pipeline, MLIR prints the op), and the same op where both name one."""
    a, b = _key(one), _key(other)
    return bool(a[0]) and a[0] == b[0] and (not a[1] or not b[1] or a[1] == b[1])


def _key(message: str) -> tuple:
    text = re.sub(r"loc\([^)]*\):\s*", "", normalise(message, None))  # an MLIR diagnostic's location
    text = re.sub(r"^(?:(?:[\w.]+|torch\.onnx\.export failed): )+", "", text).strip()
    phrase = re.split(r"[:(]| that was | in the pass pipeline", text, maxsplit=1)[0].strip()
    return phrase, failing_op(message)


def shown(text: str) -> str:
    """Text for a committed page: this machine's install and checkout paths left out."""
    text = _ANSI.sub("", hf_zoo.INSTALL_PATH.sub("site-packages/", text or ""))
    return _A_CHECKOUT.sub("", text.replace(_CHECKOUT, ""))


_CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))) + os.sep
# ttbench's source in the checkout a stored row was made in, which need not be this one (--from-run elsewhere)
_A_CHECKOUT = re.compile(r"(?:/[\w.+\-]+)+/(?=ttbench/[\w/]+\.py\b|\.venv/)")  # its source, its venv


def write_divergence(b, incorrect: dict, folder: str) -> list:
    """An incorrect result's reproduction into `folder` (run/repro.py): the diverging op's text in both stages
    (op.mlir), its operands and both stages' values (values.npz), what was compared (divergence.json) and, when
    it fails alone with the stated PCC, repro.py. -> the files written."""
    from ...run.repro import divergence_files, write_files  # lazy: imports torch

    facts = dict(incorrect)
    if "reference_text" not in facts and facts.get("reference_index") is not None and facts.get("earlier") in b.stages:
        facts["reference_text"] = b.stages[facts["earlier"]].ops[facts["reference_index"]].text
    return write_files(folder, divergence_files(b, facts, shown=shown))


def _child_main(argv: list) -> int:
    """python -m ttbench.fleet.track.triage repro MODEL FRONTEND STAGE ERROR_FILE FOLDER: the op-level repro of
    one job (a child: it brings the model up again, and op by op may crash)."""
    from ...pipeline import bringup  # lazy: imports torch

    watch_parent()
    model, frontend, stage, error_file, folder = argv
    with open(error_file) as f:
        error = f.read()
    m, x = models.load(model)
    b = bringup(m, x, frontend=frontend, tt=bare_step(stage) == "tt", name=model, progress=False)
    found = op_repro(b, stage, error, folder)
    write_text_atomic(os.path.join(folder, "op.json"), json.dumps(found or {}) + "\n")
    return 0


def _divergence_main(argv: list) -> int:
    """python -m ttbench.fleet.track.triage divergence MODEL FRONTEND FACTS_FILE FOLDER: an incorrect result's
    reproduction (a child: it brings the model up again)."""
    from ...pipeline import bringup  # lazy: imports torch

    watch_parent()
    model, frontend, facts_file, folder = argv
    with open(facts_file) as f:
        incorrect = json.load(f)
    m, x = models.load(model)
    b = bringup(m, x, frontend=frontend, tt=True, name=model, progress=False)
    write_divergence(b, incorrect, folder)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["repro"]:
        sys.exit(_child_main(sys.argv[2:]))
    if sys.argv[1:2] == ["divergence"]:
        sys.exit(_divergence_main(sys.argv[2:]))
    sys.exit(2)
