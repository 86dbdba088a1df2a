"""What a run produces: `RunResult` (whole graph) and `OpByOpReport` (one row per unique op), each with a
DataFrame and JSON. Their notebook tables and the op-by-op PCC plot are views in render/views.py."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Callable, Optional, TypedDict

from ..core import BadInput, Reached, cell_text, view_method
from ..io.atomic import write_npz_atomic


class OutputCheck(TypedDict, total=False):
    """One output against its golden (RunResult.outputs; run.json)."""

    ok: bool  # pcc at least min_pcc and allclose
    shape: list  # the golden's
    actual_shape: list  # only when it differs from the golden's
    dtype: str
    pcc: float
    max_abs_error: Optional[float]
    max_rel_error: Optional[float]
    allclose: bool
    error: str  # why it could not be compared


@dataclass
class RunResult:
    model: str
    stage: str
    device: str
    executed: bool  # False: nothing ran (compile-only, no device); then there is no PCC at all
    ok: bool  # executed and every output passed
    message: str  # what happened, one line
    outputs: list[OutputCheck] = field(default_factory=list)  # per output, in order
    compile_seconds: Optional[float] = None
    run_seconds: Optional[float] = None
    atol: float = 0.0
    rtol: float = 0.0
    min_pcc: float = 0.0
    golden: Optional[str] = None  # which reference made the expected outputs (torch eager, onnxruntime, ...)
    produced_by: Optional[str] = None  # what computed the outputs, when not the device itself (the interpreter)
    precision: str = "ir"  # "ir": element types as the IR says; "bf16": every float result rounded to bf16
    arrays: list = field(default_factory=list, repr=False)  # the device's outputs (numpy), when it ran
    golden_arrays: list = field(default_factory=list, repr=False)  # the reference's outputs, aligned with them

    _repr_html_ = view_method("RunResult._repr_html_",
                              "The run in a notebook: what produced it, then each output's check.")

    @property
    def pcc(self) -> Optional[float]:
        """The worst output's PCC (None when nothing executed)."""
        return min((o["pcc"] for o in self.outputs), default=None) if self.executed else None

    def to_dict(self) -> dict:
        """Everything but the arrays themselves (save_outputs writes those)."""
        kept = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("arrays", "golden_arrays")}
        return {**json.loads(json.dumps(kept, default=str)), "pcc": self.pcc}

    def save_outputs(self, path) -> str:
        """The device's outputs and the golden's as one .npz (output_0, golden_0, ...), written atomically, so
        they can be compared with a user's own expected outputs."""
        if not self.arrays:
            raise BadInput(f"no outputs to save: {self.message}")
        named = {f"output_{i}": a for i, a in enumerate(self.arrays)}
        named.update({f"golden_{i}": a for i, a in enumerate(self.golden_arrays)})
        return write_npz_atomic(path, named)

    def to_json(self, indent: int = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, default=str)

    def to_dataframe(self):
        import pandas as pd

        return pd.DataFrame(self.outputs)

    def __repr__(self) -> str:
        head = f"<RunResult {self.model} {self.stage} on {self.device}: {'ok' if self.ok else 'FAILED'} - {self.message}>"
        lines = [head] + [f"  output {i}: pcc {o['pcc']:.6f}, max abs {o['max_abs_error']}, allclose {o['allclose']}"
                          for i, o in enumerate(self.outputs)]
        return "\n".join(lines)


# How far one op got, in order: its own graph (an FX op, an ONNX node), imported, lowered, the Tenstorrent
# compiler's stages, executed on the device.
FURTHEST_STAGES = tuple(r for r in Reached if r != Reached.TTSIM)  # how far a device's op-by-op row can get, in order
OP_COLUMNS = ["index", "op", "count", "inputs", "locations", "furthest_stage", "pcc", "max_abs_error", "ok", "error",
              "seconds", "pcc_from"]


@dataclass
class OpRow:
    index: int  # position among unique ops, in graph order of first occurrence
    op: str  # aten overload ("aten.mm.default") or ONNX op ("onnx.MatMul")
    count: int
    inputs: list[str]  # "1x3x224x224 float32" per tensor input
    locations: list[str]  # source lines of every occurrence (short form)
    furthest_stage: Reached
    pcc: Optional[float] = None
    max_abs_error: Optional[float] = None
    ok: bool = False
    error: Optional[str] = None
    seconds: float = 0.0
    nodes: list = field(default_factory=list)  # FX node / ONNX node names of the occurrences
    pcc_from: Optional[str] = None  # what produced the PCC when not the device (the interpreter, compile-only)
    note: Optional[str] = None  # compile-only: why the unit's TTNN was not interpreted, or how it differs

    _repr_html_ = view_method("OpRow._repr_html_", "One op's row as a card: the op, its lines, how far it got, why.")

    def __post_init__(self):
        self.furthest_stage = Reached(self.furthest_stage)


@dataclass(frozen=True)
class NoFailingOp:
    """first_failing_op's answer when every op gets through: false in a test (`if b.first_failing_op():`), and
    saying what was checked when shown."""

    stage: str
    unique_ops: int
    device: str

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return (f"no failing op: each of the {self.unique_ops} unique ops gets through {self.stage} on its own "
                f"({self.device})")


@dataclass
class OpByOpReport:
    model: str
    stage: str
    device: str
    mode: str  # "isolated" or "chained"
    min_pcc: float
    rows: list[OpRow]  # graph order
    total_ops: int
    seconds: float
    first_divergence: Optional[OpRow] = None  # chained: the first op whose output fell below min_pcc
    compile_only: bool = False  # nothing executed (tt without a chip): ok means "compiled to a flatbuffer", no PCC
    frontend: str = ""
    skipped: dict = field(default_factory=dict)  # op -> occurrences not run alone (no tensor result, uninitialized)
    _rerun: Optional[Callable[[int], OpRow]] = field(default=None, repr=False)

    _repr_html_ = view_method("OpByOpReport._repr_html_", "The op-by-op table in a notebook, failures first.")
    plot = view_method("OpByOpReport.plot",
                       "plot(ax=None): PCC per unique op in graph order, failures red, the threshold as a line.")

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.rows)

    def failed(self) -> list:
        return [r for r in self.rows if not r.ok]

    def rerun(self, index: int) -> OpRow:
        """Run op `index` again (same inputs) and replace its row: one call after a fix or for a closer look."""
        if self._rerun is None:
            raise BadInput("this report was not made by op_by_op() in this session: it has no inputs to rerun with")
        row = self._rerun(index)
        self.rows[index] = row
        return row

    def to_dataframe(self):
        import pandas as pd

        return pd.DataFrame([{c: getattr(r, c) for c in OP_COLUMNS} for r in self.rows]).set_index("index")

    def to_dict(self) -> dict:
        return {"model": self.model, "frontend": self.frontend, "stage": self.stage, "device": self.device,
                "mode": self.mode, "compile_only": self.compile_only, "min_pcc": self.min_pcc, "skipped": self.skipped, "unique_ops": len(self.rows), "total_ops": self.total_ops,
                "seconds": self.seconds, "ok": self.ok,
                "first_divergence": asdict(self.first_divergence) if self.first_divergence else None,
                "ops": [asdict(r) for r in self.rows]}

    def to_json(self, indent: int = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, default=str)

    def summary(self) -> str:
        failed = self.failed()
        if self.compile_only:
            interpreted = [r for r in self.rows if r.pcc_from]
            differ = [r for r in interpreted if r.note]
            text = (f"{self.model} op-by-op ({self.mode}, {self.stage} on {self.device}, compile-only: no chip): "
                    f"{len(self.rows)} unique ops of {self.total_ops}, {len(self.rows) - len(failed)} compile "
                    f"to a flatbuffer, {len(failed)} do not, {self.seconds:.1f}s; PCC from ttbench's interpreter "
                    f"of each unit's TTNN program (not the chip): {len(interpreted)} interpreted, "
                    f"{len(differ)} differ from the golden")
        else:
            text = (f"{self.model} op-by-op ({self.mode}, {self.stage} on {self.device}): {len(self.rows)} unique "
                    f"ops of {self.total_ops}, {len(self.rows) - len(failed)} pass, {len(failed)} fail, "
                    f"{self.seconds:.1f}s")
        if self.skipped:
            text += (f"\nnot run alone (no tensor result, or uninitialized memory): "
                     + ", ".join(f"{op} x{n}" for op, n in sorted(self.skipped.items())))
        if self.first_divergence is not None:
            r = self.first_divergence
            where = ", ".join(r.locations[:1]) or "?"
            text += f"\nfirst divergence: #{r.index} {r.op} at {where} (pcc {cell_text(r.pcc)})"
        return text

    def __repr__(self) -> str:
        return f"<OpByOpReport {self.summary()}>"
