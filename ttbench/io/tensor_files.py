"""Example inputs from files: numpy's .npz, or a folder of ONNX TensorProto files (`input_0.pb`, ..., the layout
of ONNX's test data sets). Files are untrusted: regular files only (no links), sizes checked before reading,
no pickles, no external-data tensors."""
from __future__ import annotations

import os
import re
import zipfile

import numpy as np

from ..core import BadInput, MAX_INPUT_BYTES
from .folders import inside

_POSITIONAL = re.compile(r"arr_(\d+)")


def read_inputs(path):
    """--inputs PATH -> a list of arrays (in order) or a dict by input name.
    .npz: names that are the model's input names, or numpy's arr_0, arr_1, ... for positional ones.
    Folder: input_0.pb, input_1.pb, ...; by the names the tensors carry when every one has one."""
    path = os.fspath(path)
    if os.path.isdir(path):
        tensors = read_pb_folder(path, "input")
        if not tensors:
            raise BadInput(f"{path} holds no input_0.pb (a folder of inputs is ONNX's test-data layout: "
                           f"input_0.pb, input_1.pb, ...)")
        named = [name for name, _ in tensors]
        if all(named) and len(set(named)) == len(named):
            return dict(tensors)
        return [array for _, array in tensors]
    if not os.path.isfile(path):
        raise BadInput(f"--inputs {path}: no such file or folder")
    return read_npz(path)


def read_npz(path: str):
    try:
        archive = np.load(path, allow_pickle=False)
    except Exception as exc:
        raise BadInput(f"{path} is not a numpy .npz file ({type(exc).__name__}): save inputs with "
                       f"numpy.savez(path, name=array, ...)") from None
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise BadInput(f"{path} holds one array, not an .npz archive: save inputs with numpy.savez")
    with archive:
        total = sum(info.file_size for info in archive.zip.infolist())
        if total > MAX_INPUT_BYTES:
            raise BadInput(f"{path} unpacks to {total / 2**30:,.0f} GiB, more than the {MAX_INPUT_BYTES >> 30} GiB "
                           f"example inputs may take")
        try:
            arrays = {name: archive[name] for name in archive.files}
        except (ValueError, OSError, zipfile.BadZipFile) as exc:
            raise BadInput(f"{path}: cannot read its arrays ({exc})") from None
    positions = [_POSITIONAL.fullmatch(name) for name in arrays]
    if arrays and all(positions):
        order = sorted(int(m.group(1)) for m in positions)
        if order != list(range(len(order))):
            raise BadInput(f"{path}: positional arrays must be arr_0 ... arr_{len(order) - 1}")
        return [arrays[f"arr_{i}"] for i in order]
    return arrays


def read_pb_folder(path: str, prefix: str) -> list:
    """[(tensor name or None, array)] for PREFIX_0.pb, PREFIX_1.pb, ... in `path` (numbered from 0 without gaps)."""
    import onnx
    from onnx import numpy_helper

    root = os.path.realpath(path)
    pattern = re.compile(re.escape(prefix) + r"_(\d+)\.pb")
    found = sorted((int(m.group(1)), name) for name in os.listdir(root) if (m := pattern.fullmatch(name)))
    if [i for i, _ in found] != list(range(len(found))):
        raise BadInput(f"{path}: {prefix} files must be numbered {prefix}_0.pb, {prefix}_1.pb, ... without gaps")
    out = []
    for _, name in found:
        file = inside(root, name, f"{prefix} file")
        if os.path.getsize(file) > MAX_INPUT_BYTES:
            raise BadInput(f"{file} is larger than the {MAX_INPUT_BYTES >> 30} GiB example inputs may take")
        tensor = onnx.TensorProto()
        try:
            with open(file, "rb") as f:
                tensor.ParseFromString(f.read())
        except Exception as exc:
            raise BadInput(f"{file} is not an ONNX TensorProto ({type(exc).__name__})") from None
        if tensor.data_location == onnx.TensorProto.EXTERNAL:
            raise BadInput(f"{file} keeps its data in another file: ttbench reads only the files it was given")
        try:
            array = numpy_helper.to_array(tensor)
        except Exception as exc:
            raise BadInput(f"{file}: cannot read its tensor ({type(exc).__name__}: {exc})") from None
        out.append((tensor.name or None, array))
    return out
