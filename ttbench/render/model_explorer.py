"""Google's Model Explorer on every stage, with ttbench's facts as overlays.

The adapter turns a stage into Model Explorer's graph JSON: one node per op (label = op name), layers from the module
path (`encoder.layer.0.attention` -> namespace `encoder/layer/0/attention`, so the explorer folds each module), edges
from def-use, and per node its printed line, source location, location chain and findings. Overlays are Model
Explorer's node data (one file each, colouring nodes): findings by kind, op-by-op results (PCC, or the furthest
compiler stage when compile-only) on the first stage, const-eval membership and placement on TTNN, and, at a given
optimization level, each TTNN op's ideal-time bound.

`stage.explorer()` serves them on 127.0.0.1 in a child process, under a per-launch secret and with no outbound
connection (proc/server_guard.py; stop with `tb.explorer_stop()`);
`explorer_files(b)` is what `ttbench bringup --explorer` puts in the export folder, and `ttbench explore DIR`
serves a saved folder later.
"""
from __future__ import annotations

import json
import os
from typing import Optional

from .. import optional
from ..analysis.op_kinds import is_bookkeeping
from ..core import GRAPH_STAGES, BadInput, notebook_cell, StageName
from ..io.atomic import write_text_atomic
from ..proc.scratch import scratch_dir
from ..proc.servers import start_server
from ..records.comparison import StageComparison
from ..records.findings import KINDS
from ..records.results import FURTHEST_STAGES
from ..stages.tt import PERF_METRICS_FILE
from .bringup_html import KIND_COLOURS, KIND_LABELS, findings_by_op
from .graph import def_use_edges, edges_around
from .served_frame import ServedFrame

MAX_ATTR_CHARS = 2000  # a node's printed line is cut there (the stage text keeps it whole)
PASS_COLOUR, FAIL_COLOUR = "#2da44e", "#cf222e"  # op by op: ttbench's own verdict, never a colour scale's guess
CONST_EVAL_COLOUR = "#0969da"
SEVERITY = ("verifier", "semantic", "inplace", "constant", "location_lost")  # the colour an op with several findings gets


def stage_graph(stage, findings=None, label: Optional[str] = None, bookkeeping: bool = False) -> dict:
    """Model Explorer's graphs JSON for one stage (`{"graphs": [graph]}`). Bookkeeping ops (transfers, layouts,
    frees: op_kinds.is_bookkeeping) are left out unless asked for, their users wired to what they carried."""
    if not stage.ok:
        raise BadInput(f"the {stage.name} stage failed ({stage.error}): there is no graph to explore")
    found = findings_by_op(findings or ())
    hidden = set() if bookkeeping else {op.index for op in stage.ops if is_bookkeeping(op.name)}
    incoming: dict = {}
    for source, target in edges_around(def_use_edges(stage), hidden):
        incoming.setdefault(target, []).append(source)
    hosted: dict = {}  # op index -> the source lines whose activation the compiler fused into it
    for loc, into in getattr(findings, "fused", {}).get(stage.name, {}).items():
        for i in into.hosts:
            hosted.setdefault(i, []).append(f"{into.kind} of {loc.short}")
    nodes = []
    for op in stage.ops:
        if op.index in hidden:
            continue
        attrs = [("op", op.text[:MAX_ATTR_CHARS]), ("index", str(op.index))]
        if op.location is not None:  # a notebook cell as In[N]:line, not its made-up file name
            attrs.append(("source", op.location.short if notebook_cell(op.location.file) is not None
                          else str(op.location)))
        if op.chain:
            attrs.append(("location chain", " <- ".join(str(loc) for loc in op.chain)))
        if op.module is not None:
            attrs.append(("module", op.module or "(model)"))
        if op.attrs.get("func"):
            attrs.append(("function", op.attrs["func"]))
        if op.index in hosted:
            attrs.append(("fused activation", "; ".join(hosted[op.index])))
        for f in found.get((stage.name, op.index), ()):
            attrs.append((f"finding: {f.kind}", f.message[:MAX_ATTR_CHARS]))
        nodes.append({
            "id": str(op.index), "label": op.name, "namespace": _namespace(op.module),
            "attrs": [{"key": k, "value": v} for k, v in attrs],
            "incomingEdges": [{"sourceNodeId": str(s), "sourceNodeOutputId": "0", "targetNodeInputId": str(i)}
                              for i, s in enumerate(dict.fromkeys(incoming.get(op.index, ())))],
        })
    return {"label": label or stage.name, "graphs": [{"id": stage.name, "nodes": nodes}]}


def _namespace(module: Optional[str]) -> str:
    return module.replace(".", "/") if module else ""


def findings_overlay(stage, findings) -> dict:
    """Node data: each op with a finding, coloured by its most serious kind (value = 1 + that kind's position)."""
    results = {}
    for (name, index), found in findings_by_op(findings).items():
        if name == stage.name:
            kind = min((f.kind for f in found), key=SEVERITY.index)
            results[str(index)] = {"value": KINDS.index(kind) + 1, "bgColor": KIND_COLOURS[kind]}
    legend = ", ".join(f"{i + 1} = {KIND_LABELS[k]}" for i, k in enumerate(KINDS))
    return {stage.name: {"results": results, "name": f"findings ({legend})"}}


def op_by_op_overlay(stage, report) -> dict:
    """Node data for the first stage (fx or onnx): each op's PCC against the golden, or, compile-only, how far
    through the compiler it got; green where ttbench passed the op, red where it did not."""
    if stage.name not in GRAPH_STAGES:
        raise BadInput(f"op-by-op results are per FX node or ONNX node: overlay them on the fx/onnx stage, not "
                       f"{stage.name}")
    index_of = {op.attrs.get("node"): op.index for op in stage.ops}
    results = {}
    for row in report.rows:
        for node in row.nodes:
            if node not in index_of:
                continue
            if report.compile_only or row.pcc is None:
                value = FURTHEST_STAGES.index(row.furthest_stage) if row.furthest_stage in FURTHEST_STAGES else 0
            else:
                value = round(float(row.pcc), 6)
            results[str(index_of[node])] = {"value": value, "bgColor": PASS_COLOUR if row.ok else FAIL_COLOUR}
    if report.compile_only:
        meaning = "furthest compiler stage (" + ", ".join(f"{i} = {s}" for i, s in enumerate(FURTHEST_STAGES)) + ")"
    else:
        meaning = "PCC against the golden"
    return {stage.name: {"results": results, "name": f"op by op: {meaning}; green passed, red did not"}}


def stage_comparison_overlay(stage, comparison) -> dict:
    """Node data for the later stage of a StageComparison (TTIR/TTNN): each compared op's PCC against the earlier
    stage, green where it agrees, red where it diverges; unmatched ops carry none."""
    if comparison.stage != stage.name:
        raise BadInput(f"this comparison's ops are {comparison.stage}'s: overlay it on that stage, not {stage.name}")
    results = {str(index): {"value": round(float(m.pcc), 6), "bgColor": PASS_COLOUR if m.ok else FAIL_COLOUR}
               for index, m in comparison.worst_rows().items()}
    return {stage.name: {"results": results, "name": f"PCC against {comparison.reference_stage}; green agrees, "
                                                      f"red diverges"}}


def drift_overlay(stage, drift) -> dict:
    """Node data for the stage a DriftReport attributed: each op of its top parts with the share of the final error
    healing that part takes away (in %), the culprit darkest."""
    if drift.stage != stage.name:
        raise BadInput(f"this drift report's ops are {drift.stage}'s: overlay it on that stage, not {stage.name}")
    results: dict = {}
    for c in sorted(drift.contributors[:12], key=lambda c: c.share):  # the largest share wins where parts overlap
        if c.share <= 0:
            continue
        colour = "#b71c1c" if c.share >= 0.5 else "#ef5350" if c.share >= 0.2 else "#ffcdd2"
        for index in c.ops:
            results[str(index)] = {"value": round(100 * c.share, 1), "bgColor": colour}
    return {stage.name: {"results": results, "name": f"share of the final error, % (drift on {drift.device}: "
                                                      f"{drift.verdict[:120]})"}}


def const_eval_overlay(stage) -> dict:
    """Node data for TTNN: the ops tt-mlir moved into const-eval functions (run once on the weights)."""
    results = {str(op.index): {"value": 1, "bgColor": CONST_EVAL_COLOUR} for op in stage.ops
               if "const_eval" in (op.attrs.get("func") or "")}
    return {stage.name: {"results": results, "name": "const-eval (1 = run once on the weights, in a const-eval "
                                                     "function)"}}


# Placement overlay: value and colour per kind of place (the legend is in the overlay's name)
PLACES = (("host", "#ffffff"), ("DRAM interleaved", "#d0d7de"), ("L1 interleaved", "#9ecbff"),
          ("L1 width_sharded", "#2da44e"), ("L1 height_sharded", "#fb8f44"), ("L1 block_sharded", "#8250df"))
BOUND_COLOURS = {"compute": "#8250df", "DRAM": "#bf8700"}


def placement_overlay(stage, report) -> dict:
    """Node data for TTNN: where each op's result lives (the program's layouts, at its optimization level)."""
    place_of = {label: i for i, (label, _) in enumerate(PLACES)}
    results = {}
    for p in report.ops:
        place = p.placement.split(" on ")[0]  # the grid is in the node's own attributes
        if place in place_of:
            results[str(p.index)] = {"value": place_of[place], "bgColor": PLACES[place_of[place]][1]}
    legend = ", ".join(f"{i} = {label}" for i, (label, _) in enumerate(PLACES))
    return {stage.name: {"results": results, "name": f"placement at level {report.optimization_level} ({legend})"}}


def bound_overlay(stage, report) -> dict:
    """Node data for TTNN: each op's ideal-time bound in µs, coloured by what bounds it (a bound, not a time)."""
    results = {str(op.index): {"value": round(op.bound_s * 1e6, 4), "bgColor": BOUND_COLOURS[op.bound_by]}
               for op in report.ops}
    return {stage.name: {"results": results, "name": "ideal-time bound in µs, not a measurement (purple: "
                                                     "compute-bound, amber: DRAM-bound)"}}


def overlays(b, stage_name: str, report=None) -> dict:
    """Overlay name -> node data for one stage of `b`."""
    stage = b.stages[stage_name]
    out = {"findings": findings_overlay(stage, b.findings)}
    if stage_name == StageName.TTNN:
        out["const-eval"] = const_eval_overlay(stage)
        if stage.ok:
            try:
                out["placement"] = placement_overlay(stage, b.placement())
            except BadInput:  # a program past what ttbench reads: the graph keeps its other overlays
                pass
        if stage.ok and PERF_METRICS_FILE in stage.artifacts:  # a level was asked for: the compiler's figures
            out["bound"] = bound_overlay(stage, b.time_bound())
    from ..run.drift import DriftReport  # lazy: imports torch (~2.5 s)

    if isinstance(report, DriftReport):
        if report.stage == stage_name:
            out["drift"] = drift_overlay(stage, report)
    elif isinstance(report, StageComparison):
        if report.stage == stage_name and report.not_run is None:
            out[f"pcc vs {report.reference_stage}"] = stage_comparison_overlay(stage, report)
    elif report is not None and stage_name in GRAPH_STAGES:
        out["op by op"] = op_by_op_overlay(stage, report)
    return out


def explorer_files(b, report=None, stages=None, bookkeeping: bool = False) -> dict:
    """"explorer/<stage>.json" (the graph) and "explorer/<stage>.<overlay>.json" (node data) -> JSON text, for every
    stage that reached an IR (or those named in `stages`): what `ttbench bringup --explorer` puts in the export
    folder."""
    files = {}
    for name, stage in b.stages.items():
        if not stage.ok or (stages is not None and name not in stages):
            continue
        files[f"explorer/{name}.json"] = json.dumps(stage_graph(stage, b.findings, label=f"{b.model_name} · {name}",
                                                               bookkeeping=bookkeeping))
        for overlay, data in overlays(b, name, report).items():
            files[f"explorer/{name}.{overlay.replace(' ', '_')}.json"] = json.dumps(data)
    return files


def write_explorer_files(b, folder: str, report=None, stages=None, bookkeeping: bool = False) -> list:
    os.makedirs(os.path.join(folder, "explorer"), exist_ok=True)
    return [write_text_atomic(os.path.join(folder, name), text)
            for name, text in explorer_files(b, report, stages, bookkeeping).items()]


# --- serving ---------------------------------------------------------------------------------------------------

_SERVERS: list = []
_LAUNCH = r"""
import sys
sys.path.insert(0, sys.argv[1])
from parent_watch import watch_parent  # gone with the process that started it (a killed `ttbench explore`)
watch_parent()
from server_guard import CONTENT_POLICY, PORT_TAKEN, STORAGE_SHIM, Guard, no_network, requested_port
no_network()  # Model Explorer asks PyPI for updates at start, among others
import os
import socket
import flask
from model_explorer import server
from model_explorer.config import ModelExplorerConfig
from werkzeug.serving import make_server
# The socket is bound before anything is said: no other process can hold the port the URL names.
listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
try:
    listener.bind(("127.0.0.1", requested_port()))
except OSError as exc:
    print(PORT_TAKEN, flush=True)
    sys.exit(f"ttbench: Model Explorer cannot listen on that port: {exc}")
listener.listen(64)
port = listener.getsockname()[1]
graph_path, overlay_paths = sys.argv[2], sys.argv[3:]
guard = Guard(port)
# What this server answers, besides server_guard's rules (the secret, Host, Origin): the page, its assets, the
# graph and node data it was given (the web app reads overlay files by path: those files only). Every other API
# (reading any other path, uploads, commands, config, the update check) is refused.
APIS = {"/api/v1/load_graphs_json", "/api/v1/load_node_data", "/api/v1/get_extensions", "/api/v1/read_text_file"}
FILES = {os.path.realpath(p) for p in overlay_paths}


class GuardedFlask(flask.Flask):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        app = self.wsgi_app

        def strip_secret(environ, start_response):
            path = environ.get("PATH_INFO", "")
            proof = guard.identity_answer(f"{path}?{environ.get('QUERY_STRING', '')}", environ.get("HTTP_HOST"))
            if proof is not None:
                start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(proof)))])
                return [proof.encode()]
            environ["ttbench.secret"] = guard.under_secret(path)
            if environ["ttbench.secret"]:
                environ["PATH_INFO"] = guard.strip(path)
            return app(environ, start_response)

        self.wsgi_app = strip_secret

        @self.before_request
        def check():
            request = flask.request
            if not guard.allowed(request.host, request.headers.get("Origin"), request.headers.get("Referer"),
                                 request.environ.get("ttbench.secret")):
                flask.abort(403)
            if request.path.startswith(("/api", "/apipost", "/apistream")) and request.path not in APIS:
                flask.abort(403)
            if request.path == "/api/v1/read_text_file" and \
                    os.path.realpath(request.args.get("path") or "/") not in FILES:
                flask.abort(403)

        @self.after_request
        def page_under_secret(response):
            response.headers["Content-Security-Policy"] = CONTENT_POLICY
            if response.mimetype == "text/html":  # the app's relative requests then carry the secret in their path
                response.direct_passthrough = False
                response.set_data(response.get_data().replace(
                    b'<base href="/">', f'<base href="{guard.prefix}/">{STORAGE_SHIM}'.encode()))
            return response


    def run(self, host=None, port=None, **kwargs):  # on the socket bound above
        make_server("127.0.0.1", port, self, threaded=True, fd=listener.fileno()).serve_forever()


flask.Flask = GuardedFlask  # this process is ttbench's own launcher: only Model Explorer's app is made here
server._is_port_in_use = lambda host, port: False  # it is: by this process's own socket
server._check_new_version = lambda *args, **kwargs: None  # would be refused anyway: not even tried
config = ModelExplorerConfig()
with open(graph_path) as f:
    config.graphs_list.append(f.read())
config.model_sources.append({"url": "graphs://ttbench/0"})
for path in overlay_paths:
    config.add_node_data_from_path(path)
print("URL", f"http://127.0.0.1:{port}{guard.prefix}/?data={config.to_url_param_value()}", flush=True)
# skip_health_check: Model Explorer polls "/" until it answers 200, and the guard answers 403 without the secret:
# the loop never ended (half a core, forever, and thousands of sockets); ttbench checks health itself
server.start(host="127.0.0.1", port=port, config=config, no_open_in_browser=True, skip_health_check=True)
"""


def serve(stage, report=None, port: int = 0, height: int = 700, timeout: float = 60.0,
          bookkeeping: bool = False) -> ServedFrame:
    """Serve one stage with its overlays on 127.0.0.1 (a child process, stopped by `tb.explorer_stop()`)."""
    b = stage.bringup()
    if b is None:
        raise BadInput("explorer() needs a stage of a bringup (tb.bringup(...).stages[name])")
    _require_model_explorer()
    folder = scratch_dir("ttbench-explorer-")
    paths = write_explorer_files(b, folder, report, stages=[stage.name], bookkeeping=bookkeeping)
    graph = os.path.join(folder, "explorer", f"{stage.name}.json")
    return serve_files(graph, [p for p in paths if p != graph], port, height, timeout)


def saved_files(folder: str, stage: str) -> tuple:
    """(graph, overlays) that `--explorer` wrote for `stage` in an export folder; only plain files inside it (an
    export folder is untrusted: a link out of it is refused, never followed)."""
    root = os.path.realpath(folder)
    explorer = os.path.join(root, "explorer")
    graph = os.path.join(explorer, f"{stage}.json")
    if not os.path.isfile(graph):
        raise BadInput(f"{folder} has no explorer/{stage}.json: export with `ttbench bringup ... --out DIR --explorer`")
    found = [graph] + sorted(os.path.join(explorer, n) for n in os.listdir(explorer)
                             if n.startswith(f"{stage}.") and n.endswith(".json") and n != f"{stage}.json")
    for path in found:
        if os.path.islink(path) or not os.path.realpath(path).startswith(explorer + os.sep):
            raise BadInput(f"{path} is a link: ttbench reads only the export folder's own files")
    return found[0], found[1:]


def serve_files(graph: str, overlay_paths: list, port: int = 0, height: int = 700,
                timeout: float = 60.0) -> ServedFrame:
    _require_model_explorer()
    served = start_server(_LAUNCH, [graph, *overlay_paths], port, "/check_health", "Model Explorer", timeout)
    server = ServedFrame("Model Explorer", served, height)
    _SERVERS.append(server)
    return server


def _require_model_explorer() -> None:
    piece = optional.model_explorer()
    if not piece.available:
        raise BadInput(f"Model Explorer is not installed: {piece.hint}")


def stop() -> None:
    """Stop every Model Explorer server ttbench started."""
    while _SERVERS:
        _SERVERS.pop().stop()
