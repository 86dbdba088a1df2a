"""ttbench: every compiler stage of one model, side by side — FX/ONNX -> TorchFX IR -> StableHLO -> TTIR -> TTNN.

The public API. `import ttbench` loads only the records and the views (no torch): the names below that need torch,
torch-mlir or a server load on first use, so `ttbench --help`, `diff`, `history` and every child process start fast.
"""
import importlib

from .core import VERSION as __version__
from .core import ArgInfo, BadInput, CompilerFailure, InternalError, ModelFailed, Op, ServiceFailed, SourceLoc, Stage
from .diff import IRDiff, diff  # eager: the name `diff` would otherwise be shadowed by the submodule once imported
from .render import views as _views  # fills core.VIEWS: how each record shows itself (no torch)
from .run.devices import devices
from .render.views import save_page as save_html

# name -> (module, attribute; None for the module itself), loaded on first use.
_LAZY = {
    "bringup": ("pipeline", "bringup"), "Bringup": ("pipeline", "Bringup"),
    "compare_levels": ("pipeline", "compare_levels"),
    "models": ("models", None), "analyze": ("pipeline", "findings_of"),
    "hoist_constants": ("hoist", "hoist_constants"), "Hoisted": ("hoist", "Hoisted"),
    "netron_stop": ("render.netron_view", "stop"), "explorer_stop": ("render.model_explorer", "stop"),
    "explore": ("render.explorer", "explore"),
}

__all__ = ["bringup", "Bringup", "compare_levels", "Stage", "Op", "SourceLoc", "ArgInfo", "BadInput", "InternalError", "CompilerFailure",
           "ServiceFailed",
           "ModelFailed", "models", "analyze", "devices", "hoist_constants", "Hoisted", "diff", "IRDiff",
           "netron_stop", "explorer_stop", "explore", "save_html", "__version__"]


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'ttbench' has no attribute {name!r}")
    module_name, attribute = _LAZY[name]
    module = importlib.import_module(f".{module_name}", __name__)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value  # once loaded, a plain attribute
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
