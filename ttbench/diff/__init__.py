"""`tb.diff(a, b)` / `ttbench diff A B`: what changed between two bringups, per stage, without the noise.

sides.py reads each side (an export folder) into normalised ops; compare.py matches them and builds the IRDiff;
text.py writes it as text (the HTML view is render/views.py's).
"""
from .compare import IRDiff, StageDiff, diff, diff_folders
from .text import render_text, summary_lines

__all__ = ["IRDiff", "StageDiff", "diff", "diff_folders", "render_text", "summary_lines"]
