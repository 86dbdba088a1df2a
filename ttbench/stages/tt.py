"""Stages `ttir` and `ttnn`: what the Tenstorrent compiler (tt-xla / tt-mlir, as a PJRT plugin) makes of the
StableHLO that ttbench shows. One compile yields both; it runs in a child process (see tt_plugin.py)."""
from __future__ import annotations

import os
import pathlib
import re
import shutil
import tempfile

from .. import tt_plugin
from ..core import Stage
from ..ir.text import elide_weights, legalize_for_tt, parse_ops
from ..scratch import scratch_dir

FLATBUFFER_FILE = "ttnn.flatbuffer.ttnn"  # the name in export folders too

# ArgInfo.role -> tt-mlir's ttcore.argument_type: parameters and buffers may be hoisted into const-eval.
TT_ROLES = {"input": "input", "parameter": "parameter", "buffer": "parameter", "constant": "constant"}

_SIGNATURE_ARG_RE = re.compile(r"%arg(\d+): (tensor<[^>]*>)")


def mark_argument_roles(text: str, arguments: list) -> str:
    """Tell tt-mlir which arguments of @main are weights, the way tt-xla's torch frontend does: a
    `stablehlo.custom_call @tt.mark_argument` on each argument carrying its role and name."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if re.match(r"\s*func\.func (?:public )?@main\(", line) and line.rstrip().endswith("{"):
            break
    else:
        return text
    types = dict(_SIGNATURE_ARG_RE.findall(line))
    if len(types) != len(arguments):
        return text  # not the signature we recorded: hand it over unmarked rather than mislabel
    indent = re.match(r"\s*", lines[i + 1]).group(0)
    marks, renames = [], {}
    for index, arg in enumerate(arguments):
        t = types[str(index)]
        name = arg.name.replace("\\", "\\\\").replace('"', '\\"')
        marks.append(f'{indent}%ttb_arg{index} = stablehlo.custom_call @tt.mark_argument(%arg{index}) '
                     f'{{mhlo.frontend_attributes = {{ttcore.argument_type = "{TT_ROLES[arg.role]}", '
                     f'ttir.name = "{name}"}}}} : ({t}) -> {t}')
        renames[f"%arg{index}"] = f"%ttb_arg{index}"
    body_end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith(indent[:-2] + "}")), len(lines))
    pattern = re.compile(r"%arg\d+\b")
    body = [pattern.sub(lambda m: renames.get(m.group(0), m.group(0)), l) for l in lines[i + 1:body_end]]
    return "\n".join(lines[:i + 1] + marks + body + lines[body_end:])


def _file_stage(name: str, path: str, seconds: float, meta: dict) -> Stage:
    with open(path) as f:
        full = f.read()
    text = elide_weights(full)
    stage = Stage(name=name, ok=True, text=text, ops=parse_ops(text), seconds=seconds, meta=meta)
    stage._full_text = lambda: full
    return stage


def compile_tt(stablehlo_stage: Stage, arguments: list, params: str, timeout: float) -> tuple:
    """stablehlo Stage -> (ttir Stage, ttnn Stage)."""
    handed_over = legalize_for_tt(stablehlo_stage.full_text())
    if params == "args":
        handed_over = mark_argument_roles(handed_over, arguments)
    workdir = tempfile.mkdtemp(prefix="ttbench-tt-")
    try:
        result = tt_plugin.compile_stablehlo(handed_over, workdir, timeout=timeout)
        meta = {"target": result.target, "compile_seconds": round(result.seconds, 3)}
        stages = []
        for name in ("ttir", "ttnn"):
            path = result.files.get(name)
            if path and (result.ok or name == "ttir"):
                stage = _file_stage(name, path, result.seconds, dict(meta))
            else:
                stage = Stage(name=name, ok=False, seconds=result.seconds, meta=dict(meta),
                              error=f"{name}: {result.error or 'the compiler wrote no ' + name + ' file'}")
            stages.append(stage)
        ttir, ttnn = stages
        if not ttir.ok:
            ttnn = Stage.skipped("ttnn", "ttir")
        elif not result.ok:
            # TTIR came out but a later step failed: TTIR stays, the error belongs to ttnn.
            ttnn.error = f"ttnn: {result.error}"
        ttir.artifacts["ttir.input.stablehlo.mlir"] = handed_over
        if ttnn.ok:
            fb = result.files.get("flatbuffer")
            if fb:
                keep = os.path.join(scratch_dir("ttbench-fb-", owner=ttnn), FLATBUFFER_FILE)
                shutil.move(fb, keep)
                ttnn.meta["flatbuffer_path"] = keep
                ttnn.meta["flatbuffer_bytes"] = os.path.getsize(keep)
                ttnn.artifacts[FLATBUFFER_FILE] = pathlib.Path(keep)
            const_eval = [op for op in ttnn.ops if "const_eval" in (op.attrs.get("func") or "")]
            ttnn.meta["const_eval_functions"] = len({op.attrs["func"] for op in const_eval})
            ttnn.meta["const_eval_ops"] = len(const_eval)
        if not result.ok:
            ttir.meta["compiler_log_tail"] = tt_plugin.last_meaningful_lines(result.log, 12)
        return ttir, ttnn
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
