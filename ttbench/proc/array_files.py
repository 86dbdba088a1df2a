"""Arrays handed between processes in files, bit for bit, whatever their element type. numpy's .npz writes
ml_dtypes' types (bfloat16, the float8s) as opaque void (`|V2`, `|V1`) and reads them back as such, which no
runtime takes: these are stored as their raw bits with their type's name beside them, and come back typed.

A plain module (numpy only; ml_dtypes when such a type is read), like parent_watch.py, so the worker scripts run by
path (tt_worker.py) share it with the package."""
import json

import numpy as np

_TYPES_KEY = "__ml_dtypes__"  # array name -> ml_dtypes type name, for the arrays stored as raw bits
# Element types numpy has no type of its own for (ml_dtypes has them; torch names them the same)
ML_TYPES = ("bfloat16", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz")


def save_arrays(path, arrays: list, prefix: str) -> None:
    """`arrays` in order as PREFIX0, PREFIX1, ... in an .npz at `path` (a name or an open binary file)."""
    stored, types = {}, {}
    for i, array in enumerate(arrays):
        array = np.asarray(array)
        name = f"{prefix}{i}"
        if array.dtype.name in ML_TYPES:
            types[name] = array.dtype.name
            array = array.view(np.uint16 if array.dtype.itemsize == 2 else np.uint8)
        stored[name] = array
    np.savez(path, **stored, **{_TYPES_KEY: np.array(json.dumps(types))})


def load_arrays(path, prefix: str) -> list:
    """The arrays save_arrays wrote, in order, each with its own element type."""
    with np.load(path, allow_pickle=False) as data:
        types = json.loads(str(data[_TYPES_KEY])) if _TYPES_KEY in data.files else {}
        count = sum(1 for name in data.files if name != _TYPES_KEY)
        arrays = [data[f"{prefix}{i}"] for i in range(count)]
    if types:
        import ml_dtypes

        arrays = [a.view(getattr(ml_dtypes, types[f"{prefix}{i}"])) if f"{prefix}{i}" in types else a
                  for i, a in enumerate(arrays)]
    return arrays
