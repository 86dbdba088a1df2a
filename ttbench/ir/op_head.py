"""One printed op's head read whole: its attributes (properties and attribute dictionary, parsed) and the tensor
types of its operands and results, from the generic form `"d.op"(%a, %b) <{...}> {...} : (A, B) -> R`.

text.parse_ops reads every line once for names, values and locations (cheap, for every stage and export folder);
an executor that needs the rest of an op reads its head here, once, in the same room (tt/program.py does, for the
TTIR/TTNN program model).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .attributes import parse_attr_dict
from .brackets import skip_balanced, split_top_level
from .text import parse_tensor_type


class OpHeadError(ValueError):
    """The head is not the generic form this reader knows (ttbench's reader, not the compiler)."""


@dataclass(frozen=True)
class TensorType:
    shape: tuple  # static dimensions
    element: str  # MLIR element type as printed: "f32", "bf16", "si32", "i1", ...
    encoding: str = field(default="", compare=False)  # the encoding attribute, aliases resolved when given (TTNN:
    # "#ttnn.ttnn_layout<..., memref<1x2x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>": where the device holds it)

    def __str__(self) -> str:
        return "x".join(map(str, self.shape + (self.element,)))


@dataclass(frozen=True)
class OpHead:
    attributes: dict  # parsed properties and attributes (ir.attributes values)
    operand_types: tuple  # TensorType, or None for a non-tensor operand (a device)
    result_types: tuple  # TensorType, or None


def parse_type(text: str, aliases: Optional[dict] = None) -> Optional[TensorType]:
    """'tensor<4x64xf32, #layout2>' -> TensorType((4, 64), 'f32', <#layout2's definition>); None for a non-tensor
    type."""
    text = text.strip()
    if not text.startswith("tensor<"):
        return None
    parts = split_top_level(text[len("tensor<"):skip_balanced(text, 6) - 1])
    parsed = parse_tensor_type(parts[0])
    if parsed is None:
        raise OpHeadError(f"dynamic or unreadable tensor type {text[:80]!r}")
    shape, element = parsed
    encoding = parts[1] if len(parts) > 1 else ""
    return TensorType(shape, element, encoding=(aliases or {}).get(encoding, encoding))


def parse_type_list(text: str, aliases: Optional[dict] = None) -> tuple:
    """'(A, B)' or 'A, B' or 'A' -> a TensorType (or None) each."""
    text = text.strip()
    if text.startswith("(") and skip_balanced(text, 0) == len(text):
        text = text[1:-1]
    return tuple(parse_type(t, aliases) for t in split_top_level(text)) if text else ()


def read_head(head: str, name: str, aliases: Optional[dict] = None) -> OpHead:
    """Attributes and types of the op `name` printed as `head` (its line without the location)."""
    at = head.find("(", head.find(name.split(".", 1)[1]))
    if at < 0:
        raise OpHeadError(f"no operand list in {head[:120]!r}")
    i = skip_balanced(head, at)
    attributes: dict = {}
    while True:
        rest = head[i:].lstrip()
        j = len(head) - len(rest)
        if rest.startswith("<{"):
            end = skip_balanced(head, j)
            attributes.update(parse_attr_dict(head[j + 1:end - 1]))
            i = end
        elif rest.startswith("({"):  # regions: none of the ops an executor here runs has one
            i = skip_balanced(head, j)
        elif rest.startswith("{"):
            end = skip_balanced(head, j)
            attributes.update(parse_attr_dict(head[j:end]))
            i = end
        else:
            break
    rest = head[i:].strip()
    if not rest.startswith(":"):
        raise OpHeadError(f"no type after the operands of {head[:120]!r}")
    signature = rest[1:].strip()
    if not signature.startswith("("):
        raise OpHeadError(f"unreadable function type {signature[:120]!r}")
    close = skip_balanced(signature, 0)  # '(A, B) -> R'
    if not signature[close:].lstrip().startswith("->"):
        raise OpHeadError(f"unreadable function type {signature[:120]!r}")
    return OpHead(attributes=attributes, operand_types=parse_type_list(signature[:close], aliases),
                  result_types=parse_type_list(signature[close:].lstrip()[2:], aliases))
