"""The house's rules: the rooms in one declared order, every import (module or function level) pointing down it and
none making a cycle; only render/ makes HTML or plots; nobody redirects the user's fd 2."""
import ast
import pathlib
import sys

import ttbench

PACKAGE = pathlib.Path(ttbench.__file__).parent

# The rooms, lowest first: a module may import its own room and those listed before it, never one after it.
# A name is a module or a package prefix (`io.atomic` beats `io`); the package root (`ttbench/__init__.py`, the facade
# that composes everything) sits above all of them. docs/architecture.md draws the same order.
LAYERS = (
    ("records", ("core", "records", "io.atomic", "optional", "progress")),  # io.atomic: records save themselves
    ("processes", ("proc",)),
    ("files", ("io",)),  # io.export, the export folder, sits higher: it knows the stages
    ("ir", ("ir",)),
    ("tt programs and plugin", ("tt",)),
    ("stages", ("stages",)),
    ("analysis", ("analysis",)),
    ("compare", ("compare",)),  # the one place a PCC, an allclose or an outcome is decided
    ("run", ("run",)),
    ("transforms and export", ("hoist", "diff", "io.export")),
    ("pipeline", ("pipeline", "hf_zoo", "vision_zoo", "models", "targets")),
    ("render", ("render",)),
    ("fleet", ("fleet",)),
    ("cli", ("doctor", "cli", "__main__")),
)


def module_name(path: pathlib.Path, root: pathlib.Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_sources(root: pathlib.Path = PACKAGE) -> dict:
    """Module name (without `ttbench.`; "" for the root) -> (is a package, source text)."""
    return {module_name(p, root): (p.name == "__init__.py", p.read_text()) for p in sorted(root.rglob("*.py"))}


def _resolve(importer: str, is_package: bool, node, known) -> list:
    """The ttbench modules one import statement loads (names without `ttbench.`)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    elif node.level:
        base = importer.split(".") if importer else []
        if not is_package:
            base = base[:-1]
        base = base[:len(base) - (node.level - 1)]
        names = [".".join(base + ([node.module] if node.module else []))]
        names = [f"{names[0]}.{a.name}".strip(".") for a in node.names if f"{names[0]}.{a.name}".strip(".") in known] \
            or names
        return [n for n in names if n in known]
    else:
        names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
    out = []
    for name in names:
        if name == "ttbench" or name.startswith("ttbench."):
            short = name[len("ttbench."):] if name != "ttbench" else ""
            if short in known:
                out.append(short)
    return out


def imports(sources: dict) -> list:
    """(importer, imported, line) for every ttbench-internal import, at module or function level."""
    known = set(sources)
    found = []
    for importer, (is_package, text) in sources.items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _resolve(importer, is_package, node, known):
                    if target != importer:
                        found.append((importer, target, node.lineno))
    return found


def layer_of(module: str) -> int:
    """Index into LAYERS of the longest declared prefix; the package root is above everything."""
    if module == "":
        return len(LAYERS)
    best, best_len = None, -1
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = index, len(prefix)
    if best is None:
        raise AssertionError(f"ttbench.{module} is in no room: add it to LAYERS in tests/test_layering.py")
    return best


def room(module: str) -> str:
    return LAYERS[layer_of(module)][0] if module else "the package root"


def upward_imports(sources: dict) -> list:
    return [f"ttbench.{a} ({room(a)}) imports ttbench.{b or '__init__'} ({room(b)}) at line {line}"
            for a, b, line in imports(sources) if layer_of(b) > layer_of(a)]


def cycles(sources: dict) -> list:
    """Import cycles between modules (a package's __init__ that gathers its own submodules is not one)."""
    graph: dict = {}
    for a, b, _ in imports(sources):
        if a and (b == "" or a.startswith(b + ".")):
            continue  # a submodule reading its own package's __init__ (`from . import x`) depends on x, not on it
        graph.setdefault(a, set()).add(b)
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(" <-> ".join(sorted(f"ttbench.{m}" for m in component)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_every_module_is_in_a_declared_room():
    for module in package_sources():
        layer_of(module)


def test_no_import_points_up_the_declared_order():
    assert not upward_imports(package_sources()), "\n".join(upward_imports(package_sources()))


def test_no_import_cycle():
    assert not cycles(package_sources()), cycles(package_sources())


def test_the_layering_check_catches_a_planted_upward_import():
    sources = package_sources()
    is_package, text = sources["ir.walk"]
    sources["ir.walk"] = (is_package, text + "\n\ndef _planted():\n    from ..pipeline import bringup\n")
    assert upward_imports(sources) == ["ttbench.ir.walk (ir) imports ttbench.pipeline (pipeline) at line "
                                       f"{text.count(chr(10)) + 4}"]


def test_the_layering_check_catches_a_planted_cycle():
    sources = package_sources()
    is_package, text = sources["core"]
    sources["core"] = (is_package, text + "\nfrom .optional import versions\n")  # same room, so only a cycle
    is_package, text = sources["optional"]
    sources["optional"] = (is_package, text + "\nfrom .core import Stage\n")
    assert not upward_imports(sources) or all("core" not in u for u in upward_imports(sources))
    assert "ttbench.core <-> ttbench.optional" in cycles(sources)


# Imports sit at the top of a file. A function may import lazily only what costs start-up or is optional, and says
# so: one of ttbench's own modules with a `# lazy: reason` comment on the line, or a package listed here.
LAZY_DEPENDENCIES = {
    "torch": "~2.5 s to import: commands, views and children that build no graph never pay it",
    "torchvision": "imported only once vision_zoo has made its import sound, for a timm/ or torchvision/ entry",
    "timm": "imports torchvision: as above",
    "torch_mlir": "MLIR's native libraries: only code that reads or lowers live IR loads them",
    "onnx": "the ONNX frontend and ONNX files only",
    "onnxruntime": "the ONNX golden only",
    "jax": "PJRT clients, only in the processes that compile or run",
    "jaxlib": "PJRT clients, only in the processes that compile or run",
    "numpy": "kept out of modules that read text only (the CLI's start-up)",
    "ml_dtypes": "bf16/fp8 arrays only",
    "safetensors": "weights files only",
    "pandas": "optional: .to_pandas() only",
    "matplotlib": "only when a plot is drawn",
    "ipywidgets": "the notebook explorer widget only",
    "IPython": "notebook display only",
    "tqdm": "notebook progress bars only",
    "netron": "optional: the netron view",
    "ray": "optional: the Ray engine",
    "transformers": "the transformers zoo (hf/ARCH) only: ~2 s to import",
    "ttnn": "the simulator replay only, in the side environment (seconds; after the program is known replayable)",
    "parent_watch": "the worker scripts import it from their own folder (they must not import the package)",
    "line_protocol": "the worker scripts import it from their own folder (they must not import the package)",
    "array_files": "the worker scripts import it from their own folder (they must not import the package)",
    "shm_cleanup": "the simulator's replay script imports it from its own folder (it must not import the package)",
    "fork_each": "the worker scripts import it from their own folder (they must not import the package)",
}


def function_level_imports(sources: dict) -> list:
    """(module, line, text, kind) for every import inside a function; kind: own, stdlib or the package name."""
    found = []
    for module, (_, text) in sources.items():
        lines = text.splitlines()
        for fn in ast.walk(ast.parse(text)):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if not isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                name = node.names[0].name if isinstance(node, ast.Import) else (node.module or "")
                if isinstance(node, ast.ImportFrom) and node.level or name.startswith("ttbench"):
                    kind = "own"
                elif name.split(".")[0] in sys.stdlib_module_names:
                    kind = "stdlib"
                else:
                    kind = name.split(".")[0]
                found.append((module, node.lineno, lines[node.lineno - 1].strip(), kind))
    return found


def test_imports_are_at_the_top_unless_a_reason_is_given():
    offenders = []
    for module, line, text, kind in function_level_imports(package_sources()):
        if kind == "stdlib" or (kind == "own" and "# lazy:" not in text) or \
                (kind not in ("own", "stdlib") and kind not in LAZY_DEPENDENCIES):
            offenders.append(f"ttbench.{module}:{line}: {text}")
    assert not offenders, "\n".join(offenders)


def _modules_below_render():
    render = next(i for i, (name, _) in enumerate(LAYERS) if name == "render")
    for module, (_, text) in package_sources().items():
        if module and layer_of(module) < render:
            yield module, text


def test_html_tables_and_plots_are_made_only_in_render():
    offenders = [module for module, text in _modules_below_render()
                 if "<table" in text or "<td" in text or "matplotlib" in text]
    assert not offenders, offenders


def test_every_record_still_shows_itself():
    from ttbench.records.findings import FindingsSummary
    from ttbench.records.results import OpByOpReport, RunResult
    from ttbench.records.comparison import StageComparison

    for cls in (ttbench.Bringup, FindingsSummary, RunResult, OpByOpReport, ttbench.IRDiff, StageComparison):
        assert callable(getattr(cls, "_repr_html_", None)), cls
    assert callable(ttbench.Stage.graph) and callable(ttbench.Bringup.save_html)


# What executes a model or a program: the interpreter, the simulator, PJRT and the forked children that run graphs.
EXECUTORS = ("tt.interp", "tt.sim", "tt.plugin", "proc", "run")


def test_analyses_execute_nothing():
    """Displaying a bringup ran its captured graph in a fork from analysis/semantics; analyses read the stages,
    and whatever executes lives in run/ (the semantic check is run/semantics.py, which `tb.analyze` adds)."""
    sources = package_sources()
    offenders = [f"ttbench.{a} imports ttbench.{b} at line {line}" for a, b, line in imports(sources)
                 if a.split(".")[0] == "analysis" and any(b == e or b.startswith(e + ".") for e in EXECUTORS)]
    assert not offenders, offenders


def test_only_proc_starts_processes():
    # One place knows how a child is started (own session, dies with us) and stopped (its whole process group).
    offenders = [module for module, (_, text) in package_sources().items()
                 if module.split(".")[0] != "proc" and any(call in text for call in
                                                           ("subprocess.Popen(", "subprocess.run(", "os.fork("))]
    assert not offenders, offenders


def test_the_users_fd_2_is_never_redirected():
    # Native diagnostics come back from child processes' stderr; only a worker, through the line protocol's own
    # module, moves its fds (so nothing it prints can be taken for a reply).
    offenders = [str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
                 if "dup2(" in path.read_text() and path.relative_to(PACKAGE).as_posix() != "proc/line_protocol.py"]
    assert not offenders, offenders


def test_importing_ttbench_and_its_cli_loads_no_torch():
    """`ttbench --help` took 1.6-4 s: `import ttbench` loaded torch again through the device list and the doctor
    (the simulator's package imported the interpreter). torch loads when a model is captured, not before."""
    import subprocess
    import sys

    code = ("import sys, ttbench, ttbench.cli.commands\n"
            "print(sorted(m for m in ('torch', 'jax', 'torch_mlir', 'onnx') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stdout + done.stderr[-2000:]
