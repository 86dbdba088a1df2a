"""The records that flow through the pipeline: stages, ops and source locations.

Stage names live in one table (`STAGE_ORDER`); everything else iterates it.
"""
from __future__ import annotations

import linecache
import os
import re
import sys
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Optional, TypedDict

VERSION = "0.1.0"


# The closed sets ttbench's records use. Each is a StrEnum: a member *is* its string ("fx" == StageName.FX), so
# JSON, tables and the CLI read as before, and a record built with a value outside its set fails where it is built.
class _Names(StrEnum):
    def __repr__(self) -> str:  # printed in a list or dict it reads as the string it is: 'fx', not <StageName.FX: 'fx'>
        return repr(self.value)


class StageName(_Names):
    """Every stage, in pipeline order (a frontend's own graph first)."""
    FX = "fx"
    ONNX = "onnx"
    TORCHFX = "torchfx"
    STABLEHLO = "stablehlo"
    TTIR = "ttir"
    TTNN = "ttnn"


class Frontend(_Names):
    EXPORT = "export"  # torch.export
    DYNAMO = "dynamo"  # torch.compile's graph capture (keeps in-place ops)
    ONNX = "onnx"  # an ONNX model (exported here or given as a file)


class ParamsMode(_Names):
    ARGS = "args"  # weights are function arguments
    INLINE = "inline"  # weights are literals in the IR


class Role(_Names):
    """What a function argument of the MLIR modules is."""
    INPUT = "input"
    CACHE = "cache"  # an input or buffer the graph updates in place (a KV cache)
    PARAMETER = "parameter"
    BUFFER = "buffer"
    CONSTANT = "constant"


class FindingKind(_Names):
    INPLACE = "inplace"
    CONSTANT = "constant"
    LOCATION_LOST = "location_lost"
    VERIFIER = "verifier"
    SEMANTIC = "semantic"


class OpByOpMode(_Names):
    ISOLATED = "isolated"  # every op on the golden's own inputs
    CHAINED = "chained"  # every op on the previous ops' outputs (errors accumulate)


class OpOutcome(_Names):
    """How one op of a replay ended (run/simulated_ops.py decides it, once, for every report of that replay)."""
    COMPARED = "compared"  # it gave a value, compared with the reference's value of the same op
    REFUSED = "refused"  # ttnn refused it
    ABORTED = "aborted"  # the simulator stopped at it
    INTERNAL = "internal"  # ttbench's own replay failed at it (a bug of ours)
    NOT_REACHED = "not reached"  # a stop before it left it without a value
    NO_VALUE = "no value"  # it ran but there is no pair of values to compare


class Reached(_Names):
    """How far one op got in an op-by-op run: a stage, its flatbuffer, or a device that executed it."""
    FX = "fx"
    ONNX = "onnx"
    TORCHFX = "torchfx"
    STABLEHLO = "stablehlo"
    TTIR = "ttir"
    TTNN = "ttnn"
    FLATBUFFER = "flatbuffer"  # the Tenstorrent compiler wrote its flatbuffer (compile-only: as far as it goes)
    EXECUTED = "executed"  # a device ran it
    TTSIM = "ttsim"  # the simulator ran it


class DeviceName(_Names):
    """Where a stage runs (run/devices.py says which are usable here)."""
    CPU = "cpu"  # jaxlib's PJRT CPU client
    CUDA = "cuda"  # jax's CUDA plugin
    TT = "tt"  # the Tenstorrent PJRT plugin (compile-only without a chip)
    TTSIM = "ttsim"  # the TTNN program as ttnn calls on Tenstorrent's simulator (tt/sim, a side environment)


# Pipeline order per frontend. The first stage is the frontend's own graph.
_S = StageName
FRONTEND_STAGES = {
    Frontend.EXPORT: (_S.FX, _S.TORCHFX, _S.STABLEHLO, _S.TTIR, _S.TTNN),
    Frontend.DYNAMO: (_S.FX, _S.TORCHFX, _S.STABLEHLO, _S.TTIR, _S.TTNN),
    Frontend.ONNX: (_S.ONNX, _S.TORCHFX, _S.STABLEHLO, _S.TTIR, _S.TTNN),
}
STAGES = tuple(StageName)
FRONTENDS = tuple(Frontend)
PARAMS_MODES = tuple(ParamsMode)
# Named subsets of the stages: a tuple of stage names is written here once, read everywhere by its name.
MLIR_STAGES = (_S.TORCHFX, _S.STABLEHLO, _S.TTIR, _S.TTNN)  # MLIR modules (the rest: an FX graph, an ONNX model)
GRAPH_STAGES = (_S.FX, _S.ONNX)  # a frontend's own graph
TORCH_MLIR_STAGES = (_S.TORCHFX, _S.STABLEHLO)  # what torch-mlir makes
PROGRAM_STAGES = (_S.TTIR, _S.TTNN)  # the Tenstorrent compiler's programs, which ttbench's interpreter executes
RUNNABLE_STAGES = (_S.FX, _S.STABLEHLO, _S.TTIR, _S.TTNN)  # what b.run(stage) runs
VALUE_STAGES = (_S.TORCHFX, _S.STABLEHLO, _S.TTIR, _S.TTNN)  # what compare_stages records every op's value of
PCC_STAGES = (_S.STABLEHLO, _S.TTIR, _S.TTNN)  # the stages a sweep or the tracker measures a PCC for


class BadInput(ValueError):
    """Input the user must fix (unknown model, unreadable file, wrong inputs). The CLI exits 2 on it."""


def seconds_from(text: str) -> Optional[float]:
    """`text` as a finite number of seconds above zero, or None (nan, inf, 0, words)."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if 0 < value < float("inf") else None


def env_seconds(name: str, default: float) -> float:
    """A deadline from the environment: a finite number of seconds above zero, else the default, said in one line
    on stderr (a bad value must neither stop `import ttbench` nor, as `nan` did, switch the deadline off)."""
    text = os.environ.get(name)
    if text is None:
        return default
    value = seconds_from(text)
    if value is None:
        print(f"ttbench: {name}={text[:40]!r} is not a number of seconds above zero; using {default:g}",
              file=sys.stderr)
    return default if value is None else value


# How long the user's model may run eagerly (the input check, the golden) before ttbench calls it hung.
EAGER_TIMEOUT_S = env_seconds("TTBENCH_EAGER_TIMEOUT", 600.0)
MAX_INPUT_BYTES = 8 << 30  # an example input larger than this is a mistake (and would not fit here)


def check_input_size(what: str, shape, itemsize: int) -> None:
    """BadInput, before anything is allocated, for an example input no machine here could hold."""
    numel = 1
    for d in shape:
        numel *= int(d)
    if numel * itemsize > MAX_INPUT_BYTES:
        raise BadInput(f"{what} has shape {'x'.join(map(str, shape))}: {numel * itemsize / 2**30:,.0f} GiB, more "
                       f"than the {MAX_INPUT_BYTES >> 30} GiB an example input may take; give smaller inputs")


REPORT_BUGS = "this is a bug in ttbench, not in the compiler: please report it with the traceback"
INTERNAL_ERROR = "internal error in ttbench"  # the words ttbench's own bugs are said in (trackers count them)


class CompilerFailure(RuntimeError):
    """A compiler or frontend (torch.export, the ONNX exporter, a torch-mlir pass pipeline, the Tenstorrent plugin)
    failed; the message holds its diagnostics. Becomes the stage's error."""


class ModelFailed(RuntimeError):
    """The user's model (or one of its ops) crashed or hung when ttbench ran it eagerly; contained, not fatal."""


class ServiceFailed(RuntimeError):
    """A service ttbench starts or joins for the user (a Ray cluster) did not come up in time or went away: not the
    user's input, not a compiler's failure. The CLI prints its one line and exits 1."""


class InternalError(RuntimeError):
    """ttbench's own bug (not the user's input, not a compiler's failure). Never reported as a stage's error."""


# How records are shown (notebook HTML, pages, graphs, plots) is render/'s job, and render/ sits above every record's
# room. render/views.py fills this table ("Class.method" -> function) when ttbench is imported; each record declares
# its view methods in its class body with `view_method`, which looks the function up here when called.
VIEWS: dict[str, Callable[..., Any]] = {}


def view_method(name: str, doc: str) -> Callable[..., Any]:
    """A method that shows its record with the view registered as `name` ("Stage.graph")."""
    def method(self, *args, **kwargs):
        if name not in VIEWS:
            raise InternalError(f"no view {name!r} is registered: import ttbench (its __init__ loads render/views.py)")
        return VIEWS[name](self, *args, **kwargs)
    method.__name__ = name.rpartition(".")[2]
    method.__qualname__ = name
    method.__doc__ = doc
    return method


def _ipython_shell():
    ipython = sys.modules.get("IPython")
    return ipython.get_ipython() if ipython is not None else None


# ttbench's name for a notebook cell whose body ran under a cell magic (see `magic_cell_location`).
_MAGIC_CELL_RE = re.compile(r"<cell In\[(\d+)\]>")


def notebook_cell(file: str) -> Optional[int]:
    """The execution count of the notebook (IPython) cell that `file` names, in this live session; else None.
    IPython compiles each cell under a made-up file name (`/tmp/ipykernel_<pid>/<hash>.py` in Jupyter,
    `<ipython-input-3-<hash>>` in a terminal) and keeps its code in linecache, not on disk."""
    magic = _MAGIC_CELL_RE.fullmatch(file)
    if magic:
        return int(magic.group(1))
    cells = getattr(getattr(_ipython_shell(), "compile", None), "_filename_map", None)
    return cells.get(file) if isinstance(cells, dict) else None


# Cell magics run a cell's body under a file name of their own that every such cell shares, count its lines from
# the body (blank lines at its top dropped) and keep no source for it: %%time (`<timed exec>`, `<timed eval>` for
# a last expression) and %%timeit (`<magic-timeit>`).
_CELL_MAGIC_FILES = {"<timed exec>": "%%time", "<timed eval>": "%%time", "<magic-timeit>": "%%timeit"}
_DEF_RE = re.compile(r"^(\s*)(?:async\s+)?def\s+(\w+)")


def magic_cell_location(file: str, line: int, function: Optional[str]) -> Optional["SourceLoc"]:
    """The notebook cell line that a frame inside a cell magic's body ran (`<timed exec>`, line 3, in forward): in
    the newest cell of this session run under that magic where that line lies in a `def function`; for a body a
    magic ran as a cell of its own (%%capture), the cell the user wrote. The cell's text goes into linecache as
    `<cell In[N]>` so its code can be shown. None for any other frame, or when no cell fits."""
    shell = _ipython_shell()
    history = getattr(getattr(shell, "history_manager", None), "input_hist_raw", None)
    if not isinstance(history, list) or line < 1:
        return None
    magic = _CELL_MAGIC_FILES.get(file)
    if magic is None:
        return _cell_run_by_magic(file, line, shell, history)
    for number in range(len(history) - 1, 0, -1):
        cell = history[number] if isinstance(history[number], str) else ""
        lines = cell.splitlines()
        if not lines or lines[0].split()[:1] != [magic]:
            continue
        blank = next((i for i, text in enumerate(lines[1:]) if text.strip()), 0)
        at = blank + line  # index in `lines`: the magic's line, the dropped blank lines, then the body's line
        if at >= len(lines) or not lines[at].strip():
            continue
        if function and not function.startswith("<") and _enclosing_def(lines, at) != function:
            continue
        name = f"<cell In[{number}]>"
        linecache.cache[name] = (len(cell), None, [text + "\n" for text in lines], name)  # no mtime: never stale
        return SourceLoc(name, at + 1)
    return None


def _cell_run_by_magic(file: str, line: int, shell, history: list) -> Optional["SourceLoc"]:
    """A cell magic that runs its body as a cell of its own (%%capture) has IPython name that body as the next
    cell, counted from the body: the line in the cell the user wrote, or None when `file` is no such body."""
    cells = getattr(getattr(shell, "compile", None), "_filename_map", None)
    number = cells.get(file) if isinstance(cells, dict) else None
    cached = linecache.cache.get(file)
    if number is None or not cached or len(cached) < 3:
        return None
    body = "".join(cached[2]).splitlines()
    for n in (number - 1, number):
        lines = history[n].splitlines() if 0 < n < len(history) and isinstance(history[n], str) else []
        if not lines or not lines[0].startswith("%%") or not body:
            continue
        starts = [k for k in range(1, len(lines) - len(body) + 1) if lines[k:k + len(body)] == body]
        if starts:
            name = f"<cell In[{n}]>"
            linecache.cache[name] = (len(history[n]), None, [text + "\n" for text in lines], name)
            return SourceLoc(name, starts[0] + line)
    return None


def _enclosing_def(lines: list, at: int) -> Optional[str]:
    """The name of the function whose body holds lines[at] (the nearest `def` above it, indented less)."""
    indent = len(lines[at]) - len(lines[at].lstrip())
    for text in reversed(lines[:at]):
        m = _DEF_RE.match(text)
        if m and len(m.group(1)) < indent:
            return m.group(2)
    return None


@dataclass(frozen=True)
class SourceLoc:
    file: str  # absolute path as recorded by the frontend (or a notebook cell's made-up name)
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"

    @property
    def short(self) -> str:
        """`loader.py:14`, or for a notebook cell `In[3]:14` (its file name means nothing to the user)."""
        cell = notebook_cell(self.file)
        return f"In[{cell}]:{self.line}" if cell is not None else f"{self.file.rsplit('/', 1)[-1]}:{self.line}"

    def code(self) -> Optional[str]:
        """This line's code where Python ran it: a file on disk, or a cell of this notebook session."""
        if not (os.path.isfile(self.file) or notebook_cell(self.file) is not None):
            return None
        return linecache.getline(self.file, self.line).strip() or None


@dataclass
class Op:
    index: int  # position in the stage, in printed order
    name: str  # e.g. "aten.relu_.default", "stablehlo.add", "ttnn.matmul"
    location: Optional[SourceLoc]  # innermost frame in the user's code, None when unknown
    chain: tuple = ()  # every file frame of the location, innermost first
    text: str = ""  # the op's printed line (weights elided)
    attrs: dict = field(default_factory=dict)  # small per-op facts (FX target kind, result types, ...)
    module: Optional[str] = None  # path of the PyTorch module that ran it ("features.3.conv.1", "" the root)

    def __repr__(self) -> str:
        return f"Op({self.index}, {self.name!r}, {self.location.short if self.location else None})"


@dataclass
class ArgInfo:
    """One function argument of the MLIR modules, in order (what to feed when running)."""

    name: str  # FX placeholder target / parameter name / ONNX input name
    role: Role
    shape: tuple
    dtype: str

    def __post_init__(self):
        self.role = Role(self.role)


class StageMeta(TypedDict, total=False):
    """A stage's facts beyond its ops (JSON-serialisable; exported in manifest.json). Each stage fills its own."""

    verifier: Optional[str]  # MLIR stages: the verifier's error, None when the IR verifies
    traceback: str  # a failed stage: where it failed
    internal_error: bool  # a failed stage: ttbench's own bug, not the compiler's
    target: str  # ttir/ttnn: the system descriptor compiled for
    optimization_level: int  # ttir/ttnn: the Tenstorrent compiler's optimization level (0, 1, 2)
    compile_seconds: float
    lock_wait_seconds: float  # ttir/ttnn: time spent waiting for another process's Tenstorrent compile first
    flatbuffer_path: str  # ttnn: the flatbuffer file kept beside the stage
    flatbuffer_bytes: int
    const_eval_functions: int  # ttnn: functions tt-mlir runs once on the weights
    const_eval_ops: int
    compiler_log_tail: str  # ttir: the plugin's last meaningful log lines
    prepared: list  # onnx: what preparing the file changed
    opset: list  # onnx: the model's opsets
    before_hoist: dict  # stablehlo after hoisting: the stage before ({"ops": N})
    hoisted: dict  # a hoisted stage: what was asked (to, min_numel, ...)
    inlined: list  # fx: weights inlined as constants (params="inline")
    constants: Any  # fx: the graph's tensor constants
    mutations: list  # fx: inputs and buffers the graph updates in place
    inplace_rewritten: list  # fx (export): in-place ops of the model's code torch.export rewrote out of place
    signature: list  # fx: the exported program's input specs
    aten_ops: int  # fx (dynamo): ops after decomposition to aten


@dataclass
class Stage:
    name: StageName
    ok: bool
    error: Optional[str] = None  # names the stage and, where known, the op and source line
    text: str = ""  # readable IR: weights elided, locations shown
    ops: list[Op] = field(default_factory=list)
    seconds: float = 0.0
    meta: StageMeta = field(default_factory=lambda: StageMeta())
    module: Any = None  # the stage's in-memory artifact (fx.GraphModule, onnx.ModelProto, MLIR Module), when kept
    artifacts: dict = field(default_factory=dict)  # extra files of this stage: file name -> text, or Path to copy
    _full_text: Optional[Callable[[], str]] = field(default=None, repr=False)
    _full_text_printed: Optional[str] = field(default=None, repr=False)
    # The Bringup this stage belongs to, for its views only: its findings colour `graph()` and `explorer()` writes
    # its files, also in `tb.bringup(...).stages["fx"].graph()`, where nothing else holds the bringup. No part of the
    # record: not an argument, not compared, and neither copied nor pickled with the stage (a copy does not drag the
    # model and its weights along; a copied stage draws like a stage made on its own).
    _bringup: Any = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self):
        self.name = StageName(self.name)

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_bringup": None}

    def bringup(self) -> Any:
        """The Bringup this stage came from, while it exists; None for a stage made on its own."""
        return self._bringup

    def full_text(self) -> str:
        """The complete, parseable IR (weights included, locations kept)."""
        if self._full_text is None:
            return self.text
        if self._full_text_printed is None:  # printed once: export, the TT compile and runs all need it
            self._full_text_printed = self._full_text()
        return self._full_text_printed

    graph = view_method("Stage.graph", "graph(max_nodes=300, op_filter=None, kind=None, bookkeeping=False): the stage "
                        "as a graph (graphviz SVG, or DOT text when `dot` is missing), coloured by finding kind; over "
                        "100 ops at full size in a box that scrolls and zooms.")
    netron = view_method("Stage.netron", "netron(port=0, height=600): the onnx stage in netron, served on 127.0.0.1 in "
                         "an IFrame (stop with tb.netron_stop()).")
    explorer = view_method("Stage.explorer", "explorer(report=None, port=0, height=700, bookkeeping=False): the "
                           "stage in Model Explorer with ttbench's overlays (findings; const-eval on TTNN; an op-by-op "
                           "report on fx/onnx, or a StageComparison's per-op PCC on its later stage), on 127.0.0.1 "
                           "(stop with tb.explorer_stop()); transfers, layouts and frees drawn with bookkeeping=True.")

    @classmethod
    def skipped(cls, name: str, failed: str) -> "Stage":
        return cls(name=StageName(name), ok=False, error=f"skipped: {failed} failed")

    def summary(self) -> dict:
        return {
            "ok": self.ok,
            "error": self.error,
            "seconds": round(self.seconds, 3),
            "ops": len(self.ops),
            "op_counts": op_histogram(self.ops),
            **({"meta": self.meta} if self.meta else {}),
        }

    def __repr__(self) -> str:
        state = "ok" if self.ok else f"FAILED: {self.error}"
        return f"<Stage {self.name}: {len(self.ops)} ops, {self.seconds:.2f}s, {state}>"


def cell_text(value) -> str:
    """How a value reads in a table cell (text or HTML): '-' for unknown, floats short, lists joined."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    return str(value)


def op_histogram(ops) -> dict:
    counts: dict = {}
    for op in ops:
        counts[op.name] = counts.get(op.name, 0) + 1
    return dict(sorted(counts.items()))


def human_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def human_seconds(s: float) -> str:
    """42 s, 12.5 min, 3.1 h."""
    if s < 120:
        return f"{s:.0f} s"
    return f"{s / 60:.1f} min" if s < 7200 else f"{s / 3600:.1f} h"


@dataclass
class BringupRecord:
    """One bringup, fields only: what every room below pipeline.py (run/, analysis/, io/, render/) reads and types
    against. pipeline.Bringup adds the methods (findings, runs, exports) on top."""

    model_name: str  # zoo name, file name or class name
    frontend: Frontend
    params: ParamsMode
    stages: dict[str, Stage]  # pipeline order
    arguments: list[ArgInfo] = field(default_factory=list)  # per MLIR function argument, in order
    argument_values: list = field(default_factory=list)  # the tensors to feed, aligned with `arguments`
    example_inputs: tuple = ()
    model: object = None  # what was brought up (nn.Module, path or ModelProto)
    seconds: float = 0.0
    weight_tensors: dict = field(default_factory=dict, repr=False)  # every weight: name -> (role, tensor), any mode
    fx_graph: Any = field(default=None, repr=False)  # the aten graph torch-mlir imported; takes argument_values
    hoisted: Any = field(default=None, repr=False)  # hoist.Hoisted when bringup(hoist=...) moved constants out
    _findings: Any = field(default=None, repr=False)  # analysis.findings.Findings, once made

    def __post_init__(self):
        self.frontend, self.params = Frontend(self.frontend), ParamsMode(self.params)

    @property
    def ok(self) -> bool:
        return all(s.ok for s in self.stages.values())

    @property
    def failed_stage(self) -> Optional[Stage]:
        return next((s for s in self.stages.values() if not s.ok), None)

    def missing_values(self) -> list:
        """Names of the arguments whose tensors are on the meta device (shapes only): a model built on meta, until
        its weights are loaded (load_weights). Everything that needs numbers refuses while this is not empty."""
        return [a.name for a, v in zip(self.arguments, self.argument_values) if v.is_meta]
