"""Child-process entry for the Tenstorrent plugin (see tt_plugin.py). Never imported by the parent.

    python tt_worker.py descriptor OUT_PATH
    python tt_worker.py compile STABLEHLO.mlir EXPORT_DIR [OPTIMIZATION_LEVEL]
    python tt_worker.py serve

`serve` keeps one plugin client for many compiles (the op-by-op flow compiles hundreds of one-op modules; the
plugin's start costs seconds, a small compile tens of milliseconds). Requests are JSON lines on stdin:
    {"source": STABLEHLO.mlir, "export": DIR, "inputs": NPZ or null, "outputs": NPZ, "optimization_level": N or null}
and each reply is one JSON line on the protocol stream (the original stdout; the plugin's own output goes to
stderr): {"ok": true, "executed": bool} or {"ok": false, "error": "..."}. "inputs" asks for an execution too
(only meaningful with a chip: compile-only clients return zeros). A compiler error the plugin raises is a
reply; a fatal one aborts this process, and the parent starts a new one.

It imports nothing from ttbench, so starting it costs only the plugin's own start.
"""
import os
import shutil
import stat
import sys
import tempfile


def _client():
    from jax._src import xla_bridge

    return xla_bridge.get_backend("tt")


def make_descriptor(out: str) -> int:
    client = _client()
    print("devices:", client.devices(), flush=True)
    # The plugin writes the descriptor in the temp folder (our private TMPDIR) while the client is alive and deletes
    # it at shutdown. Only a plain file of this user's is taken, and its bytes only (the copy gets our own mode).
    source = os.path.join(tempfile.gettempdir(), "tt_pjrt_system_descriptor")
    info = os.lstat(source)
    if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
        print(f"refusing {source}: not a plain file of this user's", file=sys.stderr, flush=True)
        return 3
    shutil.copyfile(source, out)
    return 0


# The compiler's performance metrics (per-op FLOPs, fidelity, placement; the chip's peaks) land here in the export
# folder when an optimization level is asked for.
PERF_METRICS_FILE = "perf_metrics.json"


def compile_file(source: str, export_dir: str, optimization_level=None) -> int:
    _inject_fault(source)
    _compile(_client(), source, export_dir, optimization_level)
    print("compiled", flush=True)
    return 0


def _compile(client, source: str, export_dir: str, optimization_level=None):
    from jax._src.lib import xla_client

    with open(source, "rb") as f:
        payload = f.read()
    options = xla_client.CompileOptions()
    overrides = [("export_path", export_dir)]
    if optimization_level is not None:  # level 0 is the plugin's default; asking for it also asks for the metrics
        overrides += [("optimization_level", str(int(optimization_level))), ("ttnn_perf_metrics_enabled", "true"),
                      ("ttnn_perf_metrics_output_file", os.path.join(export_dir, PERF_METRICS_FILE))]
    options.env_option_overrides = overrides
    devices = xla_client.DeviceList(tuple(client.devices()[:1]))
    return client.compile_and_load(payload, devices, options)


def _execute(client, executable, inputs: str, outputs: str) -> None:
    import jax
    import numpy as np

    from array_files import load_arrays, save_arrays  # beside this script (see array_files.py)

    feeds = load_arrays(inputs, "arg")
    device = client.devices()[0]
    buffers = [jax.device_put(x, device) for x in feeds]
    results = executable.execute_sharded(buffers).disassemble_into_single_device_arrays()
    save_arrays(outputs, [np.asarray(r[0]) for r in results], "out")


def _inject_fault(source: str) -> None:
    """For tests. TTBENCH_TT_WORKER_FAULT=abort:TEXT aborts this process when the module to compile contains TEXT
    (as the plugin's fatal errors do); race:PATH fails as the plugin does when another process unpacks its runtime
    at the same moment, once (PATH records it), race-always:- every time."""
    fault, _, needle = os.environ.get("TTBENCH_TT_WORKER_FAULT", "").partition(":")
    if fault == "abort" and needle:
        with open(source) as f:
            if needle in f.read():
                os.abort()
    if fault == "race-always" or (fault == "race" and needle and not os.path.exists(needle)):
        if fault == "race":
            open(needle, "w").close()
        print("error: failed to extract embedded tt-metal runtime archive", file=sys.stderr, flush=True)
        sys.exit(1)


def serve() -> int:
    """Many compiles in one plugin session, over the line protocol (line_protocol.py, beside this script)."""
    from line_protocol import serve as serve_lines

    def start():
        client = _client()
        return client, {"device": str(client.devices()[0])}

    def handle(client, request):
        _inject_fault(request["source"])
        os.makedirs(request["export"], exist_ok=True)
        executable = _compile(client, request["source"], request["export"],  # its error is the reply's
                              request.get("optimization_level"))
        if request.get("inputs"):
            _execute(client, executable, request["inputs"], request["outputs"])
        return {"ok": True, "executed": bool(request.get("inputs"))}

    return serve_lines(start, handle)


def main(argv) -> int:
    from parent_watch import watch_parent  # beside this script (see parent_watch.py)

    watch_parent()
    if argv[:1] == ["descriptor"] and len(argv) == 2:
        return make_descriptor(argv[1])
    if argv == ["serve"]:
        return serve()
    if argv[:1] == ["compile"] and len(argv) in (3, 4):
        os.makedirs(argv[2], exist_ok=True)
        return compile_file(argv[1], argv[2], int(argv[3]) if len(argv) == 4 else None)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
