"""Many one-op units as one module, for op by op: lowered by one pass-pipeline run, compiled by one PJRT compile.

`gather` moves each unit's @main into one module as a public function @unitN of its own. torch-mlir's pipelines
have a fixed cost per run (the ONNX one re-reads its shape library: ~80 ms, most of a node's lowering), and so
does the PJRT compiler (~25 ms on the CPU): paid once per batch instead of once per unit. `alone` takes one unit's
function back out as the @main of a module of its own; `one_program` adds a @main that calls each unit once, on
arguments of its own, and returns every result in unit order. Units share no value, so each computes what it
computes alone (tests/run/test_op_by_op.py holds the rows to those of units lowered and compiled one by one).
"""
from __future__ import annotations

from ..stages.torchfx import new_context


class NotBatchable(ValueError):
    """A unit's module is not a single @main: it is lowered and run alone."""


def gather(modules: list, context, main_first: bool = False):
    """Modules (in `context`), one unit's @main each -> (a new module holding them as public @unit0..., each
    function's type). The modules are emptied. `main_first`: the first keeps the name @main (torch-mlir's
    pipelines refuse a module of several functions none of which is @main)."""
    from torch_mlir import ir

    with context, ir.Location.unknown():
        merged = ir.Module.create()
        kinds = [_adopt(module, merged, _name(i, main_first), ir) for i, module in enumerate(modules)]
    return merged, kinds


def _name(index: int, main_first: bool) -> str:
    return "main" if main_first and index == 0 else f"unit{index}"


def alone(merged, index: int, main_first: bool = False):
    """Unit `index` of a gathered (and lowered) module, as the @main of a new module."""
    from torch_mlir import ir

    name = _name(index, main_first)
    with merged.context, ir.Location.unknown():
        module = ir.Module.create()
        function = next(op for op in merged.body.operations
                        if ir.StringAttr(op.operation.attributes["sym_name"]).value == name)
        copy = function.operation.clone(ir.InsertionPoint(module.body))
        copy.attributes["sym_name"] = ir.StringAttr.get("main")
    return module


def one_program(texts: list) -> tuple:
    """StableHLO texts, one unit each -> (the text of one module whose @main calls every unit once, each unit's
    number of results)."""
    from torch_mlir import ir
    from torch_mlir.dialects import func

    context = new_context()
    with context:
        modules = [ir.Module.parse(text) for text in texts]
    merged, kinds = gather(modules, context)
    with context, ir.Location.unknown():
        for op in merged.body.operations:
            op.operation.attributes["sym_visibility"] = ir.StringAttr.get("private")
        with ir.InsertionPoint(merged.body):
            main = func.FuncOp("main", ([t for k in kinds for t in k.inputs], [t for k in kinds for t in k.results]))
            block = main.add_entry_block()
            with ir.InsertionPoint(block):
                values, at = [], 0
                for i, kind in enumerate(kinds):
                    n = len(kind.inputs)
                    call = func.CallOp(list(kind.results), ir.FlatSymbolRefAttr.get(f"unit{i}"),
                                       list(block.arguments[at:at + n]))
                    values.extend(call.results)
                    at += n
                func.ReturnOp(values)
        merged.operation.verify()
        return str(merged), [len(kind.results) for kind in kinds]


def _adopt(unit, merged, name: str, ir):
    """Moves `unit`'s @main into `merged`, renamed `name`. -> its function type."""
    functions = list(unit.body.operations)
    if len(functions) != 1 or functions[0].operation.name != "func.func" or \
            ir.StringAttr(functions[0].operation.attributes["sym_name"]).value != "main":
        raise NotBatchable("the module is not a single @main")  # helpers would need their calls renamed too
    main = functions[0].operation
    main.attributes["sym_name"] = ir.StringAttr.get(name)
    merged.body.append(main.detach_from_parent())
    return ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
