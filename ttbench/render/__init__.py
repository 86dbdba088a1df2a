"""Rendering, separate from analysis: the registry maps what to render to the function that does it."""
from .bringup_html import render_bringup, standalone

RENDERERS = {
    "bringup.html": render_bringup,  # the default notebook view and the body of report.html
}

__all__ = ["RENDERERS", "render_bringup", "standalone"]
