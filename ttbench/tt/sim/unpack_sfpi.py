"""Take the SFPI kernel compiler out of a jax-tt-plugin wheel and put it where ttnn's tt-metal looks for it.

Runs in the simulator side environment (it needs `zstandard`, pinned there), as a plain script:

    python unpack_sfpi.py PLUGIN_WHEEL TTNN_PACKAGE_FOLDER

The plugin's libtt.so carries its runtime as a zstd-compressed tar (unpacked by the plugin itself into its temp
folder on load); `runtime/sfpi/` in it is the SFPI build the plugin was made with. Only that folder is taken,
with tarfile's "data" filter (no links out, no absolute paths), into a fresh folder renamed into place at the end:
a half-unpacked SFPI never sits where tt-metal would use it. The caller checks the version it got.
"""
import io
import os
import shutil
import sys
import tarfile
import tempfile
import zipfile

import zstandard

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
PREFIX = "runtime/sfpi/"


def runtime_tar(library: bytes):
    """The zstd frame in `library` that holds a tar with runtime/sfpi/ (a stream reader over it), or None."""
    at = library.find(ZSTD_MAGIC)
    while at >= 0:
        try:
            head = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(library[at:at + (4 << 20)])).read(1 << 20)
        except zstandard.ZstdError:
            head = b""
        if len(head) >= 512 and head[257:262] == b"ustar" and b"runtime/" in head[:512]:
            return zstandard.ZstdDecompressor().stream_reader(io.BytesIO(library[at:]), read_across_frames=False)
        at = library.find(ZSTD_MAGIC, at + 1)
    return None


def main(wheel: str, ttnn_folder: str) -> int:
    with zipfile.ZipFile(wheel) as z:
        names = [n for n in z.namelist() if n.endswith("/libtt.so")]
        if not names:
            print(f"{wheel}: no libtt.so in the wheel", file=sys.stderr)
            return 2
        library = z.read(names[0])
    reader = runtime_tar(library)
    if reader is None:
        print(f"{wheel}: no runtime archive with {PREFIX} in {names[0]}", file=sys.stderr)
        return 2
    target = os.path.join(ttnn_folder, "runtime", "sfpi")
    work = tempfile.mkdtemp(prefix=".sfpi-", dir=os.path.join(ttnn_folder, "runtime"))
    try:
        with tarfile.open(fileobj=reader, mode="r|") as tar:
            for member in tar:
                if member.name.startswith(PREFIX) or member.name == PREFIX.rstrip("/"):
                    tar.extract(member, work, filter="data")
        if os.path.isdir(target):
            shutil.rmtree(target)
        os.rename(os.path.join(work, PREFIX), target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"SFPI -> {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
