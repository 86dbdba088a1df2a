"""Child-process entry for the Tenstorrent plugin (see tt_plugin.py). Never imported by the parent.

    python tt_worker.py descriptor OUT_PATH
    python tt_worker.py compile STABLEHLO.mlir EXPORT_DIR

It imports nothing from ttbench, so starting it costs only the plugin's own start.
"""
import os
import shutil
import sys


def _client():
    from jax._src import xla_bridge

    return xla_bridge.get_backend("tt")


def make_descriptor(out: str) -> int:
    client = _client()
    print("devices:", client.devices(), flush=True)
    # The plugin writes the descriptor while the client is alive and deletes it at shutdown.
    shutil.copy("/tmp/tt_pjrt_system_descriptor", out)
    return 0


def compile_file(source: str, export_dir: str) -> int:
    from jax._src.lib import xla_client

    client = _client()
    with open(source, "rb") as f:
        payload = f.read()
    options = xla_client.CompileOptions()
    options.env_option_overrides = [("export_path", export_dir)]
    devices = xla_client.DeviceList(tuple(client.devices()[:1]))
    client.compile_and_load(payload, devices, options)
    print("compiled", flush=True)
    return 0


def main(argv) -> int:
    from parent_watch import watch_parent  # beside this script (see parent_watch.py)

    watch_parent()
    if argv[:1] == ["descriptor"] and len(argv) == 2:
        return make_descriptor(argv[1])
    if argv[:1] == ["compile"] and len(argv) == 3:
        os.makedirs(argv[2], exist_ok=True)
        return compile_file(argv[1], argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
