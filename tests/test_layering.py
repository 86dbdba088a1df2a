"""The house's rules (issue 14): only render/ makes HTML or plots, and nothing below it imports it."""
import ast
import pathlib

import ttbench

PACKAGE = pathlib.Path(ttbench.__file__).parent
# What composes outputs and so may use render/: the package entry, the CLI, export folders, sweep tables.
ABOVE_RENDER = {"__init__.py", "cli.py", "export.py", "sweep.py"}


def _modules_below_render():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "render" or str(rel) in ABOVE_RENDER:
            continue
        yield rel, path.read_text()


def test_nothing_below_render_imports_it():
    offenders = []
    for rel, text in _modules_below_render():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module and "render" in node.module.split("."):
                offenders.append(f"{rel}:{node.lineno}")
            if isinstance(node, ast.Import) and any("render" in a.name.split(".") for a in node.names):
                offenders.append(f"{rel}:{node.lineno}")
    assert not offenders, offenders


def test_html_tables_and_plots_are_made_only_in_render():
    offenders = [str(rel) for rel, text in _modules_below_render()
                 if "<table" in text or "<td" in text or "matplotlib" in text]
    assert not offenders, offenders


def test_every_record_still_shows_itself():
    from ttbench.analysis.findings import FindingsSummary
    from ttbench.run.results import OpByOpReport, RunResult

    for cls in (ttbench.Bringup, FindingsSummary, RunResult, OpByOpReport, ttbench.IRDiff):
        assert callable(getattr(cls, "_repr_html_", None)), cls
    assert callable(ttbench.Stage.graph) and callable(ttbench.Bringup.save_html)


def test_the_users_fd_2_is_never_redirected():
    # Native diagnostics come back from child processes' stderr; only the worker scripts touch their own fds.
    offenders = [str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
                 if "dup2(" in path.read_text() and path.name not in ("worker.py", "tt_worker.py")]
    assert not offenders, offenders
