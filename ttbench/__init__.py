"""ttbench: every compiler stage of one model, side by side — FX/ONNX -> TorchFX IR -> StableHLO -> TTIR -> TTNN."""
__version__ = "0.1.0"

from .core import ArgInfo, BadInput, CompilerFailure, InternalError, ModelFailed, Op, SourceLoc, Stage  # noqa: E402
from .pipeline import Bringup, bringup  # noqa: E402
from . import models  # noqa: E402
from .analysis import analyze  # noqa: E402
from .run import devices  # noqa: E402
from .hoist import Hoisted, hoist_constants  # noqa: E402
from .diff import IRDiff, diff  # noqa: E402
from .render.netron_view import stop as netron_stop  # noqa: E402
from .render.model_explorer import stop as explorer_stop  # noqa: E402
from .render.explorer import explore  # noqa: E402
from .render import views as _views  # noqa: E402
from .render.views import save_page as save_html  # noqa: E402

_views.attach()  # the records' view methods live in render/ (see render/views.py)

__all__ = ["bringup", "Bringup", "Stage", "Op", "SourceLoc", "ArgInfo", "BadInput", "InternalError", "CompilerFailure", "ModelFailed", "models", "analyze", "devices", "hoist_constants", "Hoisted", "diff", "IRDiff", "netron_stop", "explorer_stop", "explore", "save_html",
           "__version__"]
