"""What a command line names, loaded: a zoo model or an ONNX file, with its example inputs (the model's own, random
ones of given shapes, or arrays from a file). The CLI's loading, shared with anyone who takes the same arguments."""
from __future__ import annotations

import os

from . import models
from .core import BadInput


def load_target(target: str, frontend, input_shapes, input_file=None, dims=None, weights=None):
    """NAME or PATH.onnx -> (model, inputs, frontend, display name)."""
    import torch

    from .stages.fx import check_inputs  # lazy: imports torch (~2.5 s)
    from .stages.onnx_prepare import load_onnx  # lazy: imports torch (~2.5 s)

    given = None
    if input_file:
        from .io.tensor_files import read_inputs  # lazy: imports torch (~2.5 s)

        given = read_inputs(input_file)
    is_file = os.path.exists(target) or target.endswith(".onnx") or (
        os.sep in target and not target.startswith(models.PREFIXES))
    if is_file:
        if frontend not in (None, "onnx"):
            raise BadInput(f"{target} is an ONNX file: use --frontend onnx (or leave --frontend out)")
        if weights:
            raise BadInput(f"--weights chooses how a zoo model is built; {target} is an ONNX file with its own")
        inputs = given if given is not None else tuple(torch.randn(s) for s in input_shapes)
        # validates the file and the inputs before any progress is shown
        proto, inputs = load_onnx(os.path.abspath(target), inputs, dims)
        return proto, inputs, "onnx", os.path.basename(target)
    if dims:
        raise BadInput("--dim fixes named dimensions of an ONNX file's inputs: zoo models have fixed inputs")
    model, inputs = models.load(target, weights=weights)
    if given is not None:
        if isinstance(given, dict):
            raise BadInput(f"{target} takes its {len(inputs)} input(s) in order: save them as numpy.savez(path, "
                           f"a, b, ...) (arr_0, arr_1, ...), not by name")
        import numpy as np

        inputs = tuple(torch.from_numpy(np.ascontiguousarray(x)) for x in given)
    elif input_shapes:
        if len(input_shapes) != len(inputs):
            raise BadInput(f"{target} takes {len(inputs)} input(s), --input-shape gave {len(input_shapes)}")
        gen = torch.Generator().manual_seed(0)
        inputs = tuple(torch.randn(s, generator=gen).to(x.dtype) if x.dtype.is_floating_point
                       else torch.randint(0, 2, s, generator=gen).to(x.dtype) for s, x in zip(input_shapes, inputs))
    check_inputs(model, inputs)
    return model, inputs, frontend or "export", target
