"""Reading an export folder back, as untrusted input (a golden folder in a pull request, a colleague's run).

Only regular files inside the folder are read: a manifest entry that names `../x`, an absolute path or a symlink is
bad input, named. Every JSON file is checked against the shape ttbench itself writes before anything uses it, so a
malformed folder is one line and exit 2, never a traceback; nothing here may take more than linear time.
"""
from __future__ import annotations

import json
import os
import stat
from typing import Optional

from ..core import FRONTEND_STAGES, BadInput

KNOWN_STAGES = frozenset(s for stages in FRONTEND_STAGES.values() for s in stages)
MAX_JSON_BYTES = 64 << 20
MAX_JSON_DEPTH = 32  # ttbench writes at most 6 levels

# Shapes of what ttbench writes. A schema is a type (or tuple of types), ("list", item), ("map", value) or a dict of
# key -> schema (keys not listed are allowed and not used; listed keys may be absent unless in REQUIRED).
NUMBER = (int, float)
OPT_STR = (str, type(None))
OPT_NUMBER = (int, float, type(None))
STAGE_ENTRY = {"ok": bool, "error": OPT_STR, "file": OPT_STR, "ops": NUMBER, "seconds": NUMBER,
               "op_counts": ("map", NUMBER), "meta": dict}
MANIFEST_SCHEMA = {"versions": ("map", OPT_STR), "model": OPT_STR, "frontend": OPT_STR, "params": OPT_STR,
                   "ok": bool, "stages": ("map", STAGE_ENTRY)}
FINDINGS_SCHEMA = {"summary": {"stages": ("list", dict)}}
RUN_SCHEMA = {"ok": bool, "pcc": OPT_NUMBER, "stage": OPT_STR, "device": OPT_STR}
OP_BY_OP_ROW = {"op": str, "inputs": ("list", str), "pcc": OPT_NUMBER, "locations": ("list", str),
                "furthest_stage": OPT_STR, "error": OPT_STR}
OP_BY_OP_SCHEMA = {"ops": ("list", OP_BY_OP_ROW)}
REQUIRED = {id(MANIFEST_SCHEMA): ("stages",), id(OP_BY_OP_ROW): ("op", "inputs")}


def inside(root: str, name, what: str) -> str:
    """The path of `name` in folder `root` when it is a regular file there (not a link, not outside); else BadInput
    naming the entry. `root` is already resolved."""
    if not isinstance(name, str) or not name or "\0" in name:
        raise BadInput(f"{root}: {what} is {name!r}, not a file name")
    if os.path.isabs(name) or any(part in ("..", "") for part in name.replace("\\", "/").split("/")):
        raise BadInput(f"{root}: {what} {name!r} points outside the folder")
    path = os.path.join(root, name)
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        raise BadInput(f"{root}: {what} {name!r} is missing") from None
    if stat.S_ISLNK(mode) or not stat.S_ISREG(mode):
        raise BadInput(f"{root}: {what} {name!r} is {'a symlink' if stat.S_ISLNK(mode) else 'not a regular file'}"
                       f"; only regular files are read")
    if os.path.dirname(os.path.realpath(path)) != root and not os.path.realpath(path).startswith(root + os.sep):
        raise BadInput(f"{root}: {what} {name!r} resolves outside the folder")
    return path


def optional_file(root: str, name: str, what: str) -> Optional[str]:
    """inside(), or None when there is no such entry at all."""
    return inside(root, name, what) if os.path.lexists(os.path.join(root, name)) else None


def read_text(path: str) -> str:
    with open(path, errors="replace") as f:
        return f.read()


def read_json(path: str, schema, what: str):
    """The JSON at `path`, checked against `schema`; BadInput naming the file and the first wrong entry."""
    try:
        if os.path.getsize(path) > MAX_JSON_BYTES:
            raise BadInput(f"{path}: {what} is larger than {MAX_JSON_BYTES >> 20} MB: not one ttbench wrote")
        with open(path) as f:
            text = f.read()
    except OSError as exc:
        raise BadInput(f"{path}: unreadable {what} ({type(exc).__name__})") from None
    if _nesting(text) > MAX_JSON_DEPTH:
        raise BadInput(f"{path}: {what} is nested deeper than {MAX_JSON_DEPTH} levels: not one ttbench wrote")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise BadInput(f"{path}: {what} is not valid JSON ({type(exc).__name__}): is this a `ttbench bringup "
                       f"--out` folder?") from None
    problem = check(data, schema, what)
    if problem:
        raise BadInput(f"{path}: {problem}: not the {what} ttbench writes")
    return data


def read_table(path: str, fix: str):
    """A JSON table ttbench keeps beside its code (known failures, expected statuses): None where there is none
    yet; JSON that does not parse is bad input saying what to do (`fix`)."""
    if not os.path.isfile(path):
        return None
    try:
        with open(path) as f:
            return json.load(f)
    except ValueError as exc:
        raise BadInput(f"{path} is not valid JSON ({exc}): {fix}") from None


def _nesting(text: str) -> int:
    """The deepest bracket nesting outside strings (linear; json.loads would recurse on it)."""
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def check(value, schema, where: str) -> Optional[str]:
    """None when `value` has the shape `schema` describes, else what is wrong (the first thing found)."""
    if isinstance(schema, dict):
        if not isinstance(value, dict):
            return f"{where} is {type(value).__name__}, expected an object"
        for key in REQUIRED.get(id(schema), ()):
            if key not in value:
                return f"{where} has no {key!r}"
        for key, sub in schema.items():
            if key in value:
                problem = check(value[key], sub, f"{where}.{key}")
                if problem:
                    return problem
        return None
    if isinstance(schema, tuple) and schema and schema[0] in ("list", "map"):
        kind, item = schema
        if kind == "list":
            if not isinstance(value, list):
                return f"{where} is {type(value).__name__}, expected a list"
            items = enumerate(value)
        else:
            if not isinstance(value, dict):
                return f"{where} is {type(value).__name__}, expected an object"
            items = value.items()
        for key, sub_value in items:
            problem = check(sub_value, item, f"{where}[{key!r}]")
            if problem:
                return problem
        return None
    types = schema if isinstance(schema, tuple) else (schema,)
    if isinstance(value, bool) and bool not in types:  # JSON true is not a number here
        return f"{where} is a boolean"
    if not isinstance(value, types):
        return f"{where} is {type(value).__name__}"
    return None


def check_stage_names(root: str, stages: dict) -> None:
    for name in stages:
        if name not in KNOWN_STAGES:
            raise BadInput(f"{root}: the manifest names an unknown stage {name!r} (stages are "
                           f"{', '.join(sorted(KNOWN_STAGES))})")
