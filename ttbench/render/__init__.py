"""Rendering, separate from analysis: the registry maps what to render to the function that does it."""
from .bringup_html import render_bringup, standalone
from .model_explorer import explorer_files

RENDERERS = {
    "bringup.html": render_bringup,  # the default notebook view and the body of report.html
    "explorer/": explorer_files,  # Model Explorer graphs and overlays, per stage (bringup --explorer)
}

__all__ = ["RENDERERS", "render_bringup", "standalone", "explorer_files"]
