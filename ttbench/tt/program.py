"""The TTIR/TTNN program model: what the Tenstorrent compiler wrote, parsed once into functions of ops that an
executor can walk (ttbench's interpreter here, a simulator later).

The plugin writes these stages as text that torch-mlir's context cannot load (tt-mlir's dialects, custom-form
`ttcore` ops), so this is a place where reading text is right (see ir/text.py). The ops are the stage's own `Op`
records (same indices as `stage.ops`, so per-op results line up with every view); this module adds what execution
needs: each function's arguments, results and returns, each op's head (its attributes and tensor types, read by
ir/op_head.py), the const-eval functions and the layouts (the attribute aliases the tensor types' encodings name).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from ..core import PROGRAM_STAGES, Op
from ..ir.attributes import AttributeSyntaxError, TextLimit, parse_attr_dict
from ..ir.brackets import skip_balanced, split_top_level
from ..ir.op_head import OpHeadError, parse_type, read_head
from ..ir.text import parse_ops, resource_blobs, split_resources

# Ops that hand out the device, free a buffer or call a const-eval function: no work of their own on the chip and
# no value of their own to compare (a load_cached's results are its const-eval function's).
BOOKKEEPING_OPS = ("ttnn.deallocate", "ttcore.load_cached", "ttnn.get_device")

_FUNC_HEAD_RE = re.compile(r'^\s*func\.func (?:private |public |nested )?@([\w$.-]+)\(')
_RETURN_RE = re.compile(r"^\s*(?:func\.)?return\b(.*?)(?: : .*)?$")
_CALLEE_RE = re.compile(r"@([\w$.-]+)")


class ProgramError(ValueError):
    """The text is not a program this model understands (a parse failure: ttbench's reader, not the compiler)."""


class ProgramUnreadable(ProgramError):
    """The text goes past what ttbench reads (see ir.attributes.TextLimit): refused, not ttbench's bug."""


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
    argument_roles: list = field(default_factory=list)  # `ttcore.argument_type` of each ("input", "parameter",
    # "constant"), "" when not given
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
    aliases: dict = field(default_factory=dict)  # the module's attribute aliases (`#l1`, `#ttnn_layout3`, ...)
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


def _parse_head(op: Op, aliases: Optional[dict] = None) -> ProgramOp:
    """The op as the program model holds it: its record, its values, its head (ir.op_head), and the const-eval
    function a ttcore.load_cached runs."""
    head = read_head(op.text, op.name, aliases)
    callee = None
    if op.name == "ttcore.load_cached":
        m = _CALLEE_RE.search(op.text)
        callee = m.group(1) if m else None
    return ProgramOp(op=op, results=tuple(op.attrs.get("results", ())), operands=tuple(op.attrs.get("operands", ())),
                     attributes=head.attributes, operand_types=head.operand_types, result_types=head.result_types,
                     callee=callee)


def _parse_signature(line: str, name: str, aliases: Optional[dict] = None) -> Function:
    at = line.find("(", line.find("@" + name))
    end = skip_balanced(line, at)
    arguments, types, names, roles = [], [], [], []
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
        role = attrs.get("ttcore.argument_type")
        roles.append(getattr(role, "body", "") if role is not None else "")
    return Function(name=name, arguments=arguments, argument_types=types, argument_names=names, argument_roles=roles)


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
    except OpHeadError as exc:
        raise ProgramError(str(exc)) from exc
    if not functions:
        raise ProgramError(f"the {stage} text has no functions")
    return Program(stage=stage, functions=functions, resources=resource_blobs(trailer), aliases=aliases)
