"""A standalone reproduction of an op the interpreter proves wrong: a TTIR -> TTNN rewrite (or StableHLO -> TTIR
lowering) whose op's value leaves the earlier stage's.

The folder holds the op's text in both stages (op.mlir), its operands and both values as ttbench's interpreter
(and the earlier stage) computed them (values.npz), what was compared (divergence.json), and repro.py: a script
that imports nothing of ttbench (numpy only), aligns the two values as the comparison did and fails with the
stated PCC. The script is run once in a fresh process before it is offered; one that does not fail the same way
is left out, and divergence.json says so.
"""
from __future__ import annotations

import io
import json
import os
import sys

import numpy as np
import torch

from ..core import BringupRecord, StageName
from ..io.atomic import write_text_atomic
from ..proc.children import run_once
from ..proc.scratch import temp_folder
from ..io.arrays import to_numpy
from ..progress import bar as progress_bar
from ..tt.interp import interpret
from ..tt.program import parse_program
from ..tt.sim.executor import NotSimulated, abort_line, run_standalone, standalone_command
from ..tt.sim.standalone import docstring_safe, script_for
from .stage_values import divergence_values

REPRO_TIMEOUT_S = 60.0

_SCRIPT = '''"""Reproduction (written by ttbench; needs only numpy): {title}

The {stage} op computes a value that leaves the {earlier} op it lowers from. Both values are ttbench's
interpreter's reading of the compiler's programs (values.npz): it vouches for the programs' semantics, not for the
chip's kernels. The op's text in both stages is below and in op.mlir.
"""
import os
import sys

import numpy as np
import torch

OP_TEXT = {op_text!r}
REFERENCE_TEXT = {reference_text!r}
ACTUAL, EXPECTED = {actual!r}, {expected!r}  # arrays in values.npz
LAYOUT = {layout!r}  # how the earlier value is laid out as the later one (as ttbench's comparison aligned them)
MIN_PCC = {min_pcc!r}
STATED_PCC = {stated!r}


def pcc(a, b):
    a, b = np.asarray(a, np.float64).ravel(), np.asarray(b, np.float64).ravel()
    da, db = a - a.mean(), b - b.mean()
    denom = np.sqrt((da * da).sum() * (db * db).sum())
    return float(np.clip((da * db).sum() / denom, -1.0, 1.0)) if denom else float(np.allclose(a, b))


def aligned(ref, shape):
    if LAYOUT in ("same", "reshaped"):
        return ref.reshape(shape)
    if LAYOUT == "NCHW -> flattened NHWC":
        return ref.transpose(0, 2, 3, 1).reshape(shape)
    if LAYOUT == "NCHW -> NHWC":
        return ref.transpose(0, 2, 3, 1)
    if LAYOUT == "flattened NHWC -> NCHW":
        n, c, h, w = shape
        return ref.reshape(n, h, w, c).transpose(0, 3, 1, 2)
    raise SystemExit("unknown layout " + LAYOUT)


values = np.load(os.path.join(os.path.dirname(os.path.abspath(__file__)), "values.npz"))
actual = values[ACTUAL]
expected = aligned(values[EXPECTED], actual.shape)
found = pcc(actual, expected)
print("{stage}:", OP_TEXT[:200])
print("{earlier}:", REFERENCE_TEXT[:200])
print("PCC %.6f (ttbench stated %.6f), threshold %s" % (found, STATED_PCC, MIN_PCC))
if found < MIN_PCC:
    print("FAIL: PCC %.6f below %s" % (found, MIN_PCC))
    sys.exit(1)
print("no divergence")
'''


def divergence_facts(comparison) -> dict:
    """What a reproduction needs from a StageComparison's first divergence; {} when nothing diverged."""
    d = comparison.first_divergence
    if d is None or d.reference is None:
        return {}
    return {"stage": comparison.stage, "earlier": comparison.reference_stage, "op": d.op.name, "index": d.op.index,
            "part": d.part, "location": str(d.op.location or ""), "module": d.op.module, "op_pcc": d.pcc,
            "min_pcc": comparison.min_pcc, "layout": d.layout, "reference_op": d.reference.name,
            "reference_index": d.reference.index, "op_text": d.op.text[:4000],
            "reference_text": d.reference.text[:4000]}


def divergence_files(b: BringupRecord, facts: dict, shown=lambda text: text) -> dict:
    """name -> text or bytes of the reproduction folder for `facts` (divergence_facts, or the tracker's incorrect
    row); repro.py only when it was run in a fresh process and failed with the stated PCC. `shown`: how untrusted
    text is written (the tracker leaves this machine's paths out)."""
    found = divergence_values(b, facts["stage"], facts["index"], facts["earlier"], facts["reference_index"])
    arrays = found["arrays"]
    stage, earlier = facts["stage"], facts["earlier"]
    part = facts.get("part") or ""
    actual = next((n for n in arrays if part.startswith("after ") and n.startswith(f"{stage}_value_after_")),
                  f"{stage}_value")
    expected = f"{earlier}_value"
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    files: dict = {"op.mlir": f"// {stage}\n{shown(facts.get('op_text', ''))}\n// {earlier}\n"
                              f"{shown(facts.get('reference_text', ''))}\n",
                   "values.npz": buffer.getvalue()}
    about = {k: shown(v) if isinstance(v, str) else v for k, v in facts.items()
             if k not in ("op_text", "reference_text")}
    about["arrays"] = {name: {"shape": list(a.shape), "dtype_in_ir": found["dtypes"].get(name)}
                       for name, a in arrays.items()}
    if actual in arrays and expected in arrays and facts.get("op_pcc") is not None:
        script = _SCRIPT.format(title=docstring_safe(f"{stage} {facts['op']} #{facts['index']} at "
                                                     f"{shown(facts.get('location', ''))} against {earlier} "
                                                     f"{facts['reference_op']} #{facts['reference_index']}"),
                                stage=stage, earlier=earlier, op_text=shown(facts.get("op_text", "")),
                                reference_text=shown(facts.get("reference_text", "")), actual=actual,
                                expected=expected, layout=facts.get("layout") or "same",
                                min_pcc=facts.get("min_pcc", 0.999), stated=facts["op_pcc"])
        verdict = _check(script, files, facts["op_pcc"])
        about["repro"] = verdict
        if verdict["reproduces"]:
            files["repro.py"] = script
    else:
        about["repro"] = {"reproduces": False, "why": "the compared values are not both at hand"}
    files["divergence.json"] = json.dumps(about, indent=1, default=str) + "\n"
    return files


def _check(script: str, files: dict, stated: float) -> dict:
    """Run the script alone (a fresh interpreter, ttbench not importable: its own folder only, no site paths
    added) and see that it fails with the stated PCC."""
    with temp_folder("ttbench-repro-") as folder:
        with open(os.path.join(folder, "values.npz"), "wb") as f:
            f.write(files["values.npz"])
        with open(os.path.join(folder, "repro.py"), "w") as f:
            f.write(script)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
        done = run_once([sys.executable, "-I", os.path.join(folder, "repro.py")], REPRO_TIMEOUT_S, env=env,
                        cwd=folder)
        if done.timed_out:
            return {"reproduces": False, "why": f"the script did not finish in {REPRO_TIMEOUT_S:g} s"}
    return _same_pcc(done, stated, tolerance=1e-6)


MAX_SIMULATOR_REPROS = 5  # scripts checked on the simulator per export: each check is a simulator run


def simulator_files(b: BringupRecord, report, progress: bool = True) -> dict:
    """"ttsim_op_<index>/<file>" -> content for the ops of a simulator op-by-op report (device "ttsim") that
    diverge, abort or are refused, up to MAX_SIMULATOR_REPROS: a standalone ttnn script (tt/sim/standalone.py),
    its inputs.npz (the operands and the golden, as ttbench's interpreter computes them) and facts.json. A script
    is kept only when it, run alone on the simulator, fails the same way (the same PCC, or the same last words);
    facts.json says when it did not."""
    failing = [row for row in report.rows if row.error and row.nodes and row.furthest_stage in ("ttsim", "ttnn")
               and not row.error.startswith(("not run", "no value", "internal error"))][:MAX_SIMULATOR_REPROS]
    if not failing:
        return {}
    indices = {int(row.nodes[0].lstrip("#")): row for row in failing}
    program = parse_program(StageName.TTNN, b.stages[StageName.TTNN].full_text())
    run = interpret(program, list(b.argument_values), record=True, inputs_of=frozenset(indices))
    ops = {p.op.index: p for p in program.ops()}
    files: dict = {}
    with progress_bar(len(indices), f"{b.model_name} standalone scripts on ttsim", progress) as bar:
        for index, row in indices.items():
            p = ops[index]
            folder = f"ttsim_op_{index}"
            aborted = row.pcc is None
            stated = row.error if aborted else f"{row.pcc:.6f}"
            what = (f"ttbench saw the simulator stop here: {row.error}" if aborted else
                    f"ttbench saw ttnn's value leave the golden: PCC {row.pcc:.6f} below {report.min_pcc}")
            script, why_not_written = script_for(p, what, stated, report.min_pcc, standalone_command())
            facts = {"op": p.name, "index": index, "location": str(p.op.location or ""), "error": row.error,
                     "pcc": row.pcc, "min_pcc": report.min_pcc}
            operands = run.inputs.get(index, [])
            golden = run.results.get(index) or []
            if script is not None and (len(operands) != len(p.operand_types) or not golden):
                script, why_not_written = None, "the interpreter recorded no operands or value for this op"
            if script is not None:
                arrays: dict = {f"operand_{i}": to_numpy(v.float() if v.dtype == torch.bfloat16 else v)
                                for i, v in enumerate(operands) if isinstance(v, torch.Tensor)}
                arrays["golden"] = to_numpy(golden[0].float() if golden[0].dtype == torch.bfloat16 else golden[0])
                buffer = io.BytesIO()
                np.savez(buffer, **arrays)
                facts["repro"] = _check_on_simulator(script, buffer.getvalue(), row)
                files[f"{folder}/inputs.npz"] = buffer.getvalue()
                if facts["repro"]["reproduces"]:
                    files[f"{folder}/repro.py"] = script
            else:
                facts["repro"] = {"reproduces": False, "why": why_not_written}
            files[f"{folder}/facts.json"] = json.dumps(facts, indent=1, default=str) + "\n"
            bar.update(1)
    return files


def _check_on_simulator(script: str, inputs: bytes, row) -> dict:
    with temp_folder("ttbench-ttsim-repro-") as folder:
        with open(os.path.join(folder, "inputs.npz"), "wb") as f:
            f.write(inputs)
        path = os.path.join(folder, "repro.py")
        with open(path, "w") as f:
            f.write(script)
        try:
            done = run_standalone(path)
        except NotSimulated as exc:
            return {"reproduces": False, "why": str(exc)}
    if done.timed_out:
        return {"reproduces": False, "why": "the script did not finish in time"}
    if row.pcc is None:  # an abort or a refusal: the same last words
        said = abort_line(done.stdout)
        same = done.returncode != 0 and bool(said) and said[:80] in row.error
        ended = f"the script ended with exit {done.returncode}: {said or done.stdout[-200:]}"
        return {"reproduces": same, "exit": done.returncode, "said": said, **({} if same else {"why": ended})}
    return _same_pcc(done, row.pcc, tolerance=1e-4)


def _same_pcc(done, stated: float, tolerance: float) -> dict:
    """Whether a finished script failed (exit 1) with the PCC ttbench stated, within `tolerance` (and a hundredth
    of 1 - PCC more: a PCC printed to 6 places)."""
    line = next((l for l in done.stdout.splitlines() if l.startswith("PCC ")), "")
    try:
        found = float(line.split()[1])
    except (IndexError, ValueError):
        return {"reproduces": False, "why": f"the script exited {done.returncode} without a PCC: "
                                            f"{(done.stderr or done.stdout).strip()[-300:]}"}
    same = done.returncode == 1 and abs(found - stated) <= tolerance + 1e-2 * abs(1 - stated)
    return {"reproduces": same, "pcc": found, "exit": done.returncode,
            **({} if same else {"why": f"the script found PCC {found:.6f}, ttbench stated {stated:.6f}"})}


def write_files(folder: str, files: dict) -> list:
    """The reproduction's files into `folder` (each atomically) -> their paths."""
    written = []
    for name, content in files.items():
        path = os.path.join(folder, name)
        if isinstance(content, bytes):
            with open(path + ".part", "wb") as f:
                f.write(content)
            os.replace(path + ".part", path)
        else:
            write_text_atomic(path, content)
        written.append(path)
    return written
