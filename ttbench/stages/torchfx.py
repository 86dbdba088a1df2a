"""Stage `torchfx`: torch-mlir's torch dialect, straight from its importers (no lowering yet)."""
from __future__ import annotations

import time

from .. import core
from ..core import CompilerFailure, StageName
from ..ir.locations import frames_from_stack_trace, location_name, module_location_name
from ..proc.children import ContainedFailure, call_in_fork
from .mlir_stage import stage_beside


def new_context():
    """A context for ttbench's modules: the torch dialect and StableHLO known up front (lowering runs in a child
    process, and its StableHLO is parsed back here)."""
    from torch_mlir import ir
    from torch_mlir._mlir_libs import _stablehlo
    from torch_mlir.dialects import torch as torch_d

    context = ir.Context()
    torch_d.register_dialect(context)
    _stablehlo.register_dialect(context)
    return context


def import_fx(capture, start_next):
    """FxCapture -> (torch-dialect Stage, `start_next(module)`: the lowering, started before the stage is read so
    that both run at once). Placeholders become function arguments in `capture.arguments` order."""
    t0 = time.perf_counter()
    module = fx_module(capture)
    return stage_beside(StageName.TORCHFX, module, time.perf_counter() - t0, start_next)


def fx_module(capture, context=None):
    """import_fx's module alone (no Stage: the op-by-op worker needs only the IR), in `context` if given."""
    from torch_mlir.extras.fx_importer import FxImporter

    importer = FxImporter(context=context or new_context())
    # torch-mlir reads stack traces with `File "([^"]+)"`: a quote in a file name lost every location. This
    # importer (ours, not shared) gets a context cache that reads them with ttbench's own frame parser instead.
    importer._cc = _located_cache_class()(importer._c, py_attr_tracker=importer._py_attr_tracker)
    importer.import_stateless_graph(capture.graph_module.graph, func_name="main")
    return importer.module


_LOCATED_CACHE = None


def _located_cache_class():
    """torch-mlir's ContextCache with node locations read by ttbench's stack-trace parser (any file name)."""
    global _LOCATED_CACHE
    if _LOCATED_CACHE is None:
        from torch_mlir import ir
        from torch_mlir.extras.fx_importer import ContextCache

        from .fx import module_path  # lazy: imports torch (~2.5 s)

        class LocatedContextCache(ContextCache):
            __slots__ = ()

            def get_node_location(self, node):
                if node.meta.get("stack_trace") is None:
                    return None
                frames = frames_from_stack_trace(node.stack_trace)  # innermost first
                if not frames:
                    return ir.Location.unknown(context=self._c)
                files = [ir.Location.file(f.file, f.line, 0, context=self._c) for f in frames]
                where = files[0] if len(files) == 1 else ir.Location.callsite(files[0], files[1:], context=self._c)
                path = module_path(node)
                if path is None:
                    return where
                return ir.Location.name(module_location_name(path), childLoc=where, context=self._c)

        _LOCATED_CACHE = LocatedContextCache
    return _LOCATED_CACHE


def import_onnx(capture, start_next):
    """OnnxCapture -> (Stage of a torch-dialect module of `torch.operator "onnx.*"` ops, each located at the source
    line the ONNX exporter recorded for its node; `start_next(module)`, as import_fx)."""
    t0 = time.perf_counter()
    module = onnx_module(capture)
    return stage_beside(StageName.TORCHFX, module, time.perf_counter() - t0, start_next)


def onnx_module(capture, contained: bool = False, context=None):
    """import_onnx's module alone (no Stage), in `context` if given. `contained`: the caller is a child whose
    crash is contained already (the op-by-op worker), so the importer runs here, not in a fork of its own."""
    from torch_mlir import ir
    from torch_mlir.extras import onnx_importer

    from .onnx import relocate_onnx_ops  # lazy: imports torch (~2.5 s)

    def import_here():
        model_info = onnx_importer.ModelInfo(capture.model)
        imported = model_info.create_module(context=context or new_context())
        onnx_importer.NodeImporter.define_function(model_info.main_graph, imported.operation).import_all()
        return imported

    if contained:
        module = import_here()
    else:
        # The importer aborts the process on some types (unsigned integers wider than 8 bits: llvm/torch-mlir#3720),
        # so it runs in a forked copy; what it built comes back as bytecode.
        try:
            bytecode = call_in_fork(lambda: import_here().operation.get_asm(enable_debug_info=True, binary=True),
                                    core.EAGER_TIMEOUT_S, "torch-mlir's ONNX importer")
        except ContainedFailure as exc:
            raise CompilerFailure(str(exc)) from None
        except Exception as exc:  # the importer's own error, raised again here (its type may not survive the trip)
            raise CompilerFailure(f"torch-mlir's ONNX importer: {str(exc).strip() or type(exc).__name__}") from None
        with context or new_context():
            module = ir.Module.parse(bytecode)
    with module.context:
        for op in module.body.operations:  # the importer names the function after the ONNX graph
            private = "sym_visibility" in op.operation.attributes and \
                str(op.operation.attributes["sym_visibility"]).strip('"') == "private"
            if op.operation.name == "func.func" and not private:  # not an ONNX local function's helper
                op.operation.attributes["sym_name"] = ir.StringAttr.get("main")
                _order_arguments_by_signature(op.operation, capture)  # by the parameters' names: before relocating
        relocate_onnx_ops(module, capture.node_frames, capture.node_modules)
    return module


def _order_arguments_by_signature(func, capture) -> None:
    """Put the recorded arguments (and the tensors to feed) in the order of @main's parameters, matched by the
    name the importer gives each parameter's location. Never by position: a file that lists weights among its
    inputs fed equal-sized buffers to the wrong parameters and ran to a silent NaN."""
    names = [location_name(arg.location) for arg in func.regions[0].blocks[0].arguments]
    recorded = [a.name for a in capture.arguments]
    if names == recorded:
        return
    if sorted(n or "" for n in names) != sorted(recorded):
        raise CompilerFailure(f"the imported @main takes ({', '.join(map(str, names))}) but the ONNX graph's "
                              f"inputs are ({', '.join(recorded)}): the importer changed the signature")
    position = {name: i for i, name in enumerate(recorded)}
    order = [position[n] for n in names]
    capture.arguments[:] = [capture.arguments[i] for i in order]  # the Bringup holds these same lists
    capture.values[:] = [capture.values[i] for i in order]
