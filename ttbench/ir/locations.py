"""Source locations: from FX stack traces and from MLIR `loc(...)` attributes back to the user's file and line.

The "user's source" is the innermost frame that is not inside the frameworks themselves (torch, torch-mlir,
onnxscript, ...). Library model code such as transformers' modeling files counts as the user's source: that is
the code a bringup engineer reads.
"""
from __future__ import annotations

import importlib.util
import os
import re
from typing import Optional

from ..core import SourceLoc, magic_cell_location, notebook_cell
from .brackets import skip_balanced

_FRAME_RE = re.compile(r'^\s*File "(.*)", line (\d+)(?:, in (\S+))?', re.M)  # a file name may hold quotes


def _framework_dirs() -> tuple:
    dirs: list = []
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
    if not path or path == "-":
        return False
    if path.startswith("<"):  # <string>, <frozen ...>: no user's file; but a terminal IPython session's cells
        return notebook_cell(path) is not None

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
    frames = [magic_cell_location(f, int(line), function) or SourceLoc(f, int(line))
              for f, line, function in _FRAME_RE.findall(stack_trace)]
    return tuple(reversed(frames))


# --- MLIR locations -------------------------------------------------------------------------------------
# Grammar, as MLIR prints it with debug info (not "pretty"):
#   loc("file":L:C) | loc("file":L:C to L2:C2) | loc("file":L:C to :C2) | loc(callsite(A at B)) | loc(#locN)
#   loc(unknown) | loc("name"(A)) | loc("name") | loc(fused[A, B]) | loc(fused<...>[A, B])
# Strings use MLIR's escaping: `\\` for a backslash, `\XX` (two hex digits) for every other byte that is not
# printable ASCII, `"` included (`\22`); the bytes are UTF-8.
_ALIAS_DEF_RE = re.compile(r"^(#loc\d*) = loc\((.*)\)\s*$", re.M)
_LINE_COL_RE = re.compile(r":(\d+)(?::(\d+))?(?: to (?:\d+)?(?::\d+)?)?")
_ALIAS_RE = re.compile(r"#loc\d*")


# ttbench names each imported op's location after the PyTorch module that ran it: `loc("module[features.3.conv.1]"(
# callsite(...)))`. MLIR keeps an op's location through every lowering, so each stage can be grouped by module
# path. The brackets tell the name apart from the ONNX importer's node names, and keep the path readable when
# the Tenstorrent compiler appends to a name for the ops it derives (`module[conv1]_in_0_layout`).
_MODULE_NAME_RE = re.compile(r"^module\[(.*)\]", re.S)


def module_location_name(path: str) -> str:
    return f"module[{path}]"


def _module_of_name(name: str) -> tuple:
    """(the module path,) when `name` is one ttbench wrote, else (): the outermost one found is the op's."""
    m = _MODULE_NAME_RE.match(name)
    return (m.group(1),) if m else ()


class LocationSyntaxError(ValueError):
    """A location body this parser does not understand (reported as no location, never raised to the user)."""


def _expect(s: str, i: int, token: str) -> int:
    if not s.startswith(token, i):
        raise LocationSyntaxError(f"expected {token!r} at {s[i:i + 40]!r}")
    return i + len(token)


class LocTable:
    """Resolves `#locN` aliases of one printed module (empty for a location printed on its own)."""

    def __init__(self, text: str = ""):
        self.aliases = {m.group(1): m.group(2) for m in _ALIAS_DEF_RE.finditer(text)} if text else {}
        self._cache: dict = {}

    def frames(self, loc_body: str) -> tuple:
        """File frames of a location body (the text inside `loc(...)`), innermost first; () when unknown or
        not understood."""
        return self._read(loc_body)[0]

    def module(self, loc_body: str) -> Optional[str]:
        """The module path ttbench recorded in a location body (see `module_location_name`), or None."""
        return self._read(loc_body)[1]

    def _read(self, loc_body: str) -> tuple:
        cached = self._cache.get(loc_body)
        if cached is None:
            modules: list = []
            try:
                frames, _ = self._parse(loc_body, 0, 0, modules)
            except (IndexError, ValueError, RecursionError):
                frames = []
            cached = self._cache[loc_body] = (tuple(frames), modules[0] if modules else None)
        return cached

    def _parse(self, s: str, i: int, depth: int, modules: list):
        if depth > 64:
            raise RecursionError
        if s.startswith("#loc", i):
            found = _ALIAS_RE.match(s, i)
            if found is None:
                raise ValueError(f"malformed location alias at {i}")
            alias = found.group(0)
            body = self.aliases.get(alias, "unknown")
            aliased, _ = self._parse(body, 0, depth + 1, modules)
            return aliased, i + len(alias)
        if s.startswith("unknown", i):
            return [], i + len("unknown")
        if s.startswith("callsite(", i):
            callee, j = self._parse(s, i + len("callsite("), depth + 1, modules)
            j = _expect(s, j, " at ")
            caller, j = self._parse(s, j, depth + 1, modules)
            return list(callee) + list(caller), _expect(s, j, ")")
        if s.startswith("fused", i):
            j = i + len("fused")
            if s.startswith("<", j):
                j = skip_balanced(s, j)
            j = _expect(s, j, "[")
            frames: list = []
            while not s.startswith("]", j):
                sub, j = self._parse(s, j, depth + 1, modules)
                frames.extend(sub)
                if s.startswith(",", j):
                    j += 2 if s.startswith(" ", j + 1) else 1
            return frames, j + 1
        if s.startswith('"', i):
            string, j = read_mlir_string(s, i)
            if s.startswith(":", j):  # file location "file":line[:col][ to ...]
                m = _LINE_COL_RE.match(s, j)
                if not m:
                    raise LocationSyntaxError(f"bad line:column at {s[j:j + 40]!r}")
                return [SourceLoc(string, int(m.group(1)))], m.end()
            if s.startswith("(", j):  # name location "name"(child)
                modules.extend(_module_of_name(string))
                child, j = self._parse(s, j + 1, depth + 1, modules)
                return child, _expect(s, j, ")")
            return [], j  # bare name location
        raise LocationSyntaxError(f"unrecognised location at {s[i:i + 40]!r}")


def location_frames(location) -> tuple:
    """File frames of an in-memory `torch_mlir.ir.Location`, innermost first, read through the bindings'
    location classes (callsite: callee then caller; fused: each part; name: its child)."""
    return read_location(location)[0]


def read_location(location) -> tuple:
    """(file frames innermost first, module path or None) of an in-memory `torch_mlir.ir.Location`."""
    from torch_mlir import ir

    kinds = _location_kinds(ir)
    frames: list = []
    modules: list = []
    stack = [(location, 0)]
    while stack:
        loc, depth = stack.pop()
        kind = kinds.get(loc.typeid)
        if kind is None or depth > 64:
            continue
        if kind == "file":
            f = ir.FileLineColLoc(loc)
            frames.append(SourceLoc(f.filename, f.start_line))
        elif kind == "callsite":
            c = ir.CallSiteLoc(loc)
            stack += [(c.caller, depth + 1), (c.callee, depth + 1)]  # popped callee first: innermost first
        elif kind == "name":
            named = ir.NameLoc(loc)
            modules.extend(_module_of_name(named.name_str))
            stack.append((named.child_loc, depth + 1))
        elif kind == "fused":
            stack += [(part, depth + 1) for part in reversed(ir.FusedLoc(loc).locations)]
    return tuple(frames), modules[0] if modules else None


_KINDS = None


def _location_kinds(ir) -> dict:
    global _KINDS
    if _KINDS is None:
        _KINDS = {ir.FileLineColLoc.static_typeid: "file", ir.CallSiteLoc.static_typeid: "callsite",
                  ir.NameLoc.static_typeid: "name", ir.FusedLoc.static_typeid: "fused"}
    return _KINDS


def location_name(location):
    """The name of a bare name location (`loc("fc1.weight")`, how the ONNX importer marks initializers), else None."""
    from torch_mlir import ir

    if location.typeid != ir.NameLoc.static_typeid:
        return None
    named = ir.NameLoc(location)
    return named.name_str if named.child_loc.typeid == ir.UnknownLoc.static_typeid else None


def read_mlir_string(s: str, i: int):
    """(the decoded string starting with the quote at s[i], index after its closing quote)."""
    if not s.startswith('"', i):
        raise LocationSyntaxError(f"expected a string at {s[i:i + 40]!r}")
    out = bytearray()
    j = i + 1
    while True:
        c = s[j]
        if c == '"':
            return out.decode("utf-8", errors="replace"), j + 1
        if c == "\\":
            nxt = s[j + 1:j + 3]
            if len(nxt) == 2 and all(ch in "0123456789abcdefABCDEF" for ch in nxt):
                out.append(int(nxt, 16))
                j += 3
            else:  # \\ (and the classic \" \n \t some printers still write)
                out.extend({"n": b"\n", "t": b"\t"}.get(s[j + 1], s[j + 1].encode()))
                j += 2
        else:
            out.extend(c.encode())
            j += 1
