"""Source locations: from FX stack traces and from MLIR `loc(...)` attributes back to the user's file and line.

The "user's source" is the innermost frame that is not inside the frameworks themselves (torch, torch-mlir,
onnxscript, ...). Library model code such as transformers' modeling files counts as the user's source: that is
the code a bringup engineer reads.
"""
from __future__ import annotations

import os
import re
from typing import Optional

from .core import SourceLoc

_FRAME_RE = re.compile(r'File "([^"]+)", line (\d+)')


def _framework_dirs() -> tuple:
    import importlib.util

    dirs = []
    for name in ("torch", "torch_mlir", "onnxscript", "onnx_ir", "onnx", "jax", "ttbench"):
        spec = importlib.util.find_spec(name)
        if spec is None:  # an optional framework that is not installed has no frames to skip
            continue
        dirs.extend(os.path.abspath(p) + os.sep for p in (spec.submodule_search_locations or ()))
    return tuple(dirs)


_FRAMEWORK_DIRS: Optional[tuple] = None


# The same frameworks installed anywhere else: IR written on another machine or checkout (a golden export folder)
# names them under that machine's site-packages.
_INSTALLED_FRAMEWORK_RE = re.compile(r"[/\\](?:site|dist)-packages[/\\](?:torch|torch_mlir|onnxscript|onnx_ir|onnx|"
                                     r"jax|jaxlib)[/\\]")


def is_user_file(path: str) -> bool:
    global _FRAMEWORK_DIRS
    if _FRAMEWORK_DIRS is None:
        _FRAMEWORK_DIRS = _framework_dirs()
    if not path or path.startswith("<") or path == "-":
        return False
    return not (path.startswith(_FRAMEWORK_DIRS) or _INSTALLED_FRAMEWORK_RE.search(path))


def user_frame(chain) -> Optional[SourceLoc]:
    """The innermost frame of `chain` (innermost first) in the user's code."""
    for loc in chain:
        if is_user_file(loc.file):
            return loc
    return None


def frames_from_stack_trace(stack_trace: Optional[str]) -> tuple:
    """Frames of a Python stack-trace string, innermost first."""
    if not stack_trace:
        return ()
    frames = [SourceLoc(f, int(line)) for f, line in _FRAME_RE.findall(stack_trace)]
    return tuple(reversed(frames))


# --- MLIR locations -------------------------------------------------------------------------------------
# Grammar handled (as printed with debug info, not "pretty"):
#   loc("file":L:C) | loc(callsite(A at B)) | loc(#locN) | loc(unknown) | loc("name"(A)) | loc("name")
#   loc(fused[A, B]) | loc(fused<...>[A, B])
_ALIAS_DEF_RE = re.compile(r"^(#loc\d*) = loc\((.*)\)\s*$", re.M)


class LocTable:
    """Resolves `#locN` aliases of one printed module."""

    def __init__(self, text: str):
        self.aliases = {m.group(1): m.group(2) for m in _ALIAS_DEF_RE.finditer(text)}
        self._cache: dict = {}

    def frames(self, loc_body: str) -> tuple:
        """File frames of a location body (the text inside `loc(...)`), innermost first."""
        if loc_body in self._cache:
            return self._cache[loc_body]
        try:
            frames, _ = self._parse(loc_body, 0, depth=0)
        except (IndexError, ValueError, RecursionError):
            frames = ()
        self._cache[loc_body] = tuple(frames)
        return self._cache[loc_body]

    def _parse(self, s: str, i: int, depth: int):
        if depth > 64:
            raise RecursionError
        s_i = s[i:]
        if s_i.startswith("#loc"):
            m = re.match(r"#loc\d*", s_i)
            alias = m.group(0)
            body = self.aliases.get(alias, "unknown")
            return self.frames_of_alias(body, depth), i + len(alias)
        if s_i.startswith("unknown"):
            return [], i + len("unknown")
        if s_i.startswith("callsite("):
            callee, j = self._parse(s, i + len("callsite("), depth + 1)
            assert s[j:j + 4] == " at ", s[j:j + 8]
            caller, j = self._parse(s, j + 4, depth + 1)
            return list(callee) + list(caller), j + 1  # closing ')'
        if s_i.startswith("fused"):
            j = i + len("fused")
            if s[j] == "<":
                j = _skip_balanced(s, j, "<", ">")
            assert s[j] == "["
            j += 1
            frames: list = []
            while s[j] != "]":
                sub, j = self._parse(s, j, depth + 1)
                frames.extend(sub)
                if s[j] == ",":
                    j += 2 if s[j + 1] == " " else 1
            return frames, j + 1
        if s_i.startswith('"'):
            string, j = _read_string(s, i)
            if s[j:j + 1] == ":":  # file location "file":line:col (or line:col to line:col)
                m = re.match(r":(\d+):(\d+)(?: to (?:\d+:)?\d+)?", s[j:])
                return [SourceLoc(string, int(m.group(1)))], j + m.end()
            if s[j:j + 1] == "(":  # name location "name"(child)
                child, j = self._parse(s, j + 1, depth + 1)
                return child, j + 1
            return [], j  # bare name location
        raise ValueError(f"unrecognised location at {s_i[:40]!r}")

    def frames_of_alias(self, body: str, depth: int) -> list:
        frames, _ = self._parse(body, 0, depth + 1)
        return frames


def _read_string(s: str, i: int):
    assert s[i] == '"'
    j = i + 1
    out = []
    while s[j] != '"':
        if s[j] == "\\":
            out.append(s[j + 1])
            j += 2
        else:
            out.append(s[j])
            j += 1
    return "".join(out), j + 1


def _skip_balanced(s: str, i: int, open_c: str, close_c: str) -> int:
    depth = 0
    while True:
        if s[i] == open_c:
            depth += 1
        elif s[i] == close_c:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
