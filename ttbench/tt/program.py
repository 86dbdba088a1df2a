"""The TTIR/TTNN program model: what the Tenstorrent compiler wrote, parsed once into functions of ops that an
executor can walk (ttbench's interpreter here, a simulator later).

The plugin writes these stages as text that torch-mlir's context cannot load (tt-mlir's dialects, custom-form
`ttcore` ops), so this is a place where reading text is right (see ir/text.py). The ops are the stage's own `Op`
records (same indices as `stage.ops`, so per-op results line up with every view); this module adds what execution
needs: each function's arguments, results and returns, and each op's parsed attributes and tensor types.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from ..core import PROGRAM_STAGES, Op
from ..ir.attributes import AttributeSyntaxError, TextLimit, parse_attr_dict
from ..ir.brackets import skip_balanced, split_top_level
from ..ir.text import parse_ops, parse_tensor_type, resource_blobs, split_resources

_FUNC_HEAD_RE = re.compile(r'^\s*func\.func (?:private |public |nested )?@([\w$.-]+)\(')
_RETURN_RE = re.compile(r"^\s*(?:func\.)?return\b(.*?)(?: : .*)?$")
_CALLEE_RE = re.compile(r"@([\w$.-]+)")


class ProgramError(ValueError):
    """The text is not a program this model understands (a parse failure: ttbench's reader, not the compiler)."""


class ProgramUnreadable(ProgramError):
    """The text goes past what ttbench reads (see ir.attributes.TextLimit): refused, not ttbench's bug."""


@dataclass(frozen=True)
class TensorType:
    shape: tuple  # static dimensions
    element: str  # MLIR element type as printed: "f32", "bf16", "si32", "i1", ...
    encoding: str = field(default="", compare=False)  # the layout attribute, aliases resolved ("#ttnn.ttnn_layout<
    # ..., memref<1x2x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>"): where and how the device holds it

    def __str__(self) -> str:
        return "x".join(map(str, self.shape + (self.element,)))


@dataclass
class ProgramOp:
    op: Op  # the stage's record: name, index, location, module, printed text
    results: tuple  # SSA names defined ("%3", "%11#0")
    operands: tuple  # SSA names used, in order
    attributes: dict  # parsed properties and attributes (ir.attributes values)
    operand_types: tuple  # TensorType, or None for a non-tensor operand (a device)
    result_types: tuple  # TensorType, or None
    callee: Optional[str] = None  # ttcore.load_cached: the const-eval function it runs

    @property
    def name(self) -> str:
        return self.op.name


@dataclass
class Function:
    name: str
    arguments: list  # SSA names, in order
    argument_types: list  # TensorType or None
    argument_names: list  # `ttir.name` of each argument (the model's parameter name), "" when not given
    ops: list = field(default_factory=list)  # ProgramOp, in order
    returns: list = field(default_factory=list)  # SSA names returned

    @property
    def is_const_eval(self) -> bool:
        return "const_eval" in self.name


@dataclass
class Program:
    stage: str  # "ttir" or "ttnn"
    functions: dict  # name -> Function, in printed order
    resources: dict = field(default_factory=dict)  # dense_resource key -> hex of its bytes (the module's trailer)
    cache: dict = field(default_factory=dict, repr=False)  # what an executor derives once per program (its plan)

    @property
    def main(self) -> Function:
        if "main" in self.functions:
            return self.functions["main"]
        public = [f for f in self.functions.values() if not f.is_const_eval]
        if len(public) != 1:
            raise ProgramError(f"the {self.stage} program has no single entry function "
                               f"(functions: {', '.join(self.functions)})")
        return public[0]

    def ops(self) -> list:
        return [p for f in self.functions.values() for p in f.ops]


_ALIAS_RE = re.compile(r"^(#[\w$.-]+) = (.*)$")


def attribute_aliases(body: str) -> dict:
    """'#ttnn_layout2' -> its definition, from the module's leading alias lines."""
    aliases = {}
    for line in body.splitlines():
        m = _ALIAS_RE.match(line)
        if m:
            aliases[m.group(1)] = m.group(2).strip()
        elif line.strip() and not line.startswith("#"):
            break
    return aliases


def parse_type(text: str, aliases: Optional[dict] = None) -> Optional[TensorType]:
    """'tensor<4x64xf32, #ttnn_layout2>' -> TensorType((4, 64), 'f32', <#ttnn_layout2's definition>); None for a
    non-tensor type."""
    text = text.strip()
    if not text.startswith("tensor<"):
        return None
    parts = split_top_level(text[len("tensor<"):skip_balanced(text, 6) - 1])
    parsed = parse_tensor_type(parts[0])
    if parsed is None:
        raise ProgramError(f"dynamic or unreadable tensor type {text[:80]!r}")
    encoding = parts[1] if len(parts) > 1 else ""
    return TensorType(*parsed, encoding=(aliases or {}).get(encoding, encoding))


def _type_list(text: str, aliases: Optional[dict] = None) -> tuple:
    text = text.strip()
    if text.startswith("(") and skip_balanced(text, 0) == len(text):
        text = text[1:-1]
    return tuple(parse_type(t, aliases) for t in split_top_level(text)) if text else ()


def _parse_head(op: Op, aliases: Optional[dict] = None) -> ProgramOp:
    """Attributes and types of one op's printed head (generic form, or ttcore.load_cached's custom form)."""
    head = op.text
    results, operands = op.attrs.get("results", ()), op.attrs.get("operands", ())
    at = head.find("(", head.find(op.name.split(".", 1)[1]))
    if at < 0:
        raise ProgramError(f"no operand list in {head[:120]!r}")
    i = skip_balanced(head, at)
    attributes: dict = {}
    while True:
        rest = head[i:].lstrip()
        j = len(head) - len(rest)
        if rest.startswith("<{"):
            end = skip_balanced(head, j)
            attributes.update(parse_attr_dict(head[j + 1:end - 1]))
            i = end
        elif rest.startswith("({"):  # regions: none of the ops the interpreter knows has one
            i = skip_balanced(head, j)
        elif rest.startswith("{"):
            end = skip_balanced(head, j)
            attributes.update(parse_attr_dict(head[j:end]))
            i = end
        else:
            break
    rest = head[i:].strip()
    if not rest.startswith(":"):
        raise ProgramError(f"no type after the operands of {head[:120]!r}")
    signature = rest[1:].strip()
    if not signature.startswith("("):
        raise ProgramError(f"unreadable function type {signature[:120]!r}")
    close = skip_balanced(signature, 0)  # '(A, B) -> R'
    if not signature[close:].lstrip().startswith("->"):
        raise ProgramError(f"unreadable function type {signature[:120]!r}")
    operand_types = _type_list(signature[:close], aliases)
    result_types = _type_list(signature[close:].lstrip()[2:], aliases)
    callee = None
    if op.name == "ttcore.load_cached":
        m = _CALLEE_RE.search(head)
        callee = m.group(1) if m else None
    return ProgramOp(op=op, results=tuple(results), operands=tuple(operands), attributes=attributes,
                     operand_types=operand_types, result_types=result_types, callee=callee)


def _parse_signature(line: str, name: str, aliases: Optional[dict] = None) -> Function:
    at = line.find("(", line.find("@" + name))
    end = skip_balanced(line, at)
    arguments, types, names = [], [], []
    for part in split_top_level(line[at + 1:end - 1]):
        value, _, rest = part.partition(":")
        rest = rest.strip()
        type_end = skip_balanced(rest, rest.find("<")) if rest.startswith("tensor<") else len(rest.split()[0])
        arguments.append(value.strip())
        types.append(parse_type(rest[:type_end], aliases))
        attrs_at = rest.find("{", type_end)
        loc_at = rest.find(" loc(", type_end)
        attrs = {}
        if attrs_at >= 0 and (loc_at < 0 or attrs_at < loc_at):
            attrs = parse_attr_dict(rest[attrs_at:skip_balanced(rest, attrs_at)])
        given = attrs.get("ttir.name")
        names.append(given if isinstance(given, str) else "")
    return Function(name=name, arguments=arguments, argument_types=types, argument_names=names)


def parse_program(stage: str, full_text: str, ops: Optional[list] = None) -> Program:
    """The stage's program. `ops`: the stage's Op records when already parsed from the same text (or its elided
    form: eliding weights keeps every line), else parsed here."""
    if stage not in PROGRAM_STAGES:
        raise ProgramError(f"only {', '.join(PROGRAM_STAGES)} are programs ttbench can execute, not {stage!r}")
    functions: dict = {}
    current = None
    body, trailer = split_resources(full_text)
    aliases = attribute_aliases(body)
    try:
        for line in body.splitlines():
            m = _FUNC_HEAD_RE.match(line)
            if m:
                current = functions[m.group(1)] = _parse_signature(line, m.group(1), aliases)
                continue
            if current is not None:
                r = _RETURN_RE.match(line)
                if r:
                    returned = r.group(1).split(" loc(")[0]
                    current.returns = [v.strip() for v in returned.split(",") if v.strip()]
                    current = None
        if ops is None:
            ops = parse_ops(body)
        for op in ops:
            func = op.attrs.get("func")
            if func in functions:
                functions[func].ops.append(_parse_head(op, aliases))
    except TextLimit as exc:
        raise ProgramUnreadable(f"cannot read the {stage} program: {exc}") from exc
    except (AttributeSyntaxError, IndexError) as exc:
        raise ProgramError(f"cannot read the {stage} program: {exc}") from exc
    if not functions:
        raise ProgramError(f"the {stage} text has no functions")
    return Program(stage=stage, functions=functions, resources=resource_blobs(trailer))
