"""Many one-op StableHLO programs as one, for op by op on a PJRT device.

Each unit's @main becomes a private function of a new module whose @main calls each once, on arguments of its
own, and returns every result in unit order. The PJRT compiler's fixed cost per compile (~25 ms on the CPU, most
of a one-op unit's time) is then paid once per batch. The units share no value, so each computes what it computes
alone (tests/test_op_by_op.py compares the two bit for bit).
"""
from __future__ import annotations

from ..stages.torchfx import new_context


class NotBatchable(ValueError):
    """A unit's module is not one public @main (and maybe helpers): it runs alone."""


def one_program(texts: list) -> tuple:
    """StableHLO texts, one unit each -> (the merged module's text, each unit's number of arguments, each unit's
    number of results)."""
    from torch_mlir import ir
    from torch_mlir.dialects import func

    context = new_context()
    with context, ir.Location.unknown():
        merged = ir.Module.create()
        entries = []  # (callee name, its function type)
        with ir.InsertionPoint(merged.body):
            for i, text in enumerate(texts):
                entries.append(_adopt(ir.Module.parse(text), merged, f"unit{i}", ir))
            arguments = [t for _, kind in entries for t in kind.inputs]
            results = [t for _, kind in entries for t in kind.results]
            main = func.FuncOp("main", (arguments, results))
            block = main.add_entry_block()
            with ir.InsertionPoint(block):
                values, at = [], 0
                for name, kind in entries:
                    n = len(kind.inputs)
                    call = func.CallOp(list(kind.results), ir.FlatSymbolRefAttr.get(name),
                                       list(block.arguments[at:at + n]))
                    values.extend(call.results)
                    at += n
                func.ReturnOp(values)
        merged.operation.verify()
        return (str(merged), [len(kind.inputs) for _, kind in entries],
                [len(kind.results) for _, kind in entries])


def _adopt(unit, merged, name: str, ir):
    """Moves `unit`'s @main into `merged`, renamed `name` and made private. -> (name, its function type)."""
    functions = list(unit.body.operations)
    if any(op.operation.name != "func.func" for op in functions):
        raise NotBatchable("the module holds more than functions")
    names = {str(ir.StringAttr(op.operation.attributes["sym_name"]).value): op for op in functions}
    if "main" not in names or len(names) > 1:
        raise NotBatchable("the module is not a single @main")  # helpers would need their calls renamed too
    main = names["main"].operation
    main.attributes["sym_name"] = ir.StringAttr.get(name)
    main.attributes["sym_visibility"] = ir.StringAttr.get("private")
    kind = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
    merged.body.append(main.detach_from_parent())
    return name, kind
