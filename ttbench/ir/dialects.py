"""What ttbench knows about MLIR ops and element types, shared by both readers of IR: the live walk (walk.py) and the
text parser (text.py). Plain tables; nothing here needs the bindings."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

# Ops whose regions hold ops of the stage (the rest hold a body that belongs to its op).
CONTROL_FLOW_OPS = frozenset({
    "stablehlo.while", "stablehlo.if", "stablehlo.case", "mhlo.while", "mhlo.if", "mhlo.case",
    "torch.prim.Loop", "torch.prim.If", "scf.for", "scf.if", "scf.while", "scf.forall", "scf.execute_region",
})
# Ops that only give the IR its shape; they are not ops of a stage.
STRUCTURAL_OPS = frozenset({
    "builtin.module", "func.func", "func.return", "ttcore.device_module", "ttcore.device",
    "ml_program.global", "stablehlo.return", "tosa.yield", "scf.yield", "scf.condition", "linalg.yield",
    "torch.prim.Loop.condition", "torch.prim.If.yield",
})
# Where each tensor-constant op keeps its literal.
CONSTANT_VALUE_ATTRS = {"stablehlo.constant": "value", "mhlo.constant": "value", "arith.constant": "value",
                        "tosa.const": "values", "torch.vtensor.literal": "value", "torch.tensor.literal": "value",
                        "onnx.Constant": "torch.onnx.value", "ttir.constant": "value", "ttnn.constant": "value"}
ELIDE_ABOVE = 16  # literals with more elements than this are shown as dense_resource<__elided__>
ELIDED = "dense_resource<__elided__>"

# MLIR element type -> numpy dtype name (bf16 through ml_dtypes).
NP_DTYPES = {"f64": "float64", "f32": "float32", "f16": "float16", "i1": "bool", "i8": "int8", "si8": "int8",
             "ui8": "uint8", "i16": "int16", "si16": "int16", "ui16": "uint16", "i32": "int32", "si32": "int32",
             "ui32": "uint32", "i64": "int64", "si64": "int64", "ui64": "uint64", "bf16": "bfloat16"}
ITEM_SIZE = {"f64": 8, "f32": 4, "tf32": 4, "f16": 2, "bf16": 2, "i1": 1, "i8": 1, "si8": 1, "ui8": 1, "i16": 2,
             "si16": 2, "ui16": 2, "i32": 4, "si32": 4, "ui32": 4, "i64": 8, "si64": 8, "ui64": 8,
             "complex<f32>": 8, "complex<f64>": 16}


def is_structural(name: str) -> bool:
    return name in STRUCTURAL_OPS or name.endswith((".return", ".yield"))


@dataclass(frozen=True)
class ConstantFacts:
    """What a tensor constant op holds, read without its values (`Op.attrs["constant"]`, from either reader)."""

    shape: list  # dimensions; [] for a scalar
    dtype: str  # the MLIR element type ("f32", "bf16", "i1", ...)
    nbytes: int  # logical bytes: every element
    embedded_bytes: int  # bytes written in the IR (one element for a splat, every one otherwise)
    splat: bool  # one value for every element (of more than one)
    resource: Optional[str]  # the dense_resource key; None for a dense literal (or an elided one, read from text)
    attr: Optional[str]  # the op's attribute holding the value; None when read from printed text
