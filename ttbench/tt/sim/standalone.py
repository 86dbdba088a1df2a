"""A standalone ttnn script for one TTNN op: what the kernel team runs to see an op diverge or abort on
Tenstorrent's simulator (or a chip) without ttbench.

The script places each operand as the IR's type says (element type, tile or row-major layout, DRAM / L1 / host),
calls the op with the attributes the IR gives it (compute kernel config included), and compares the result with
the golden (ttbench's interpreter's value of the op, computed in torch from the program's documented semantics)
by PCC. It imports numpy and ttnn only. Op kinds without a writer here get no script (`script_for` says why).
"""
from __future__ import annotations

import re
from typing import Optional

from ...ir.op_head import TensorType
from ..program import ProgramOp

_BINARY = ("add", "subtract", "multiply", "divide", "maximum", "minimum", "eq", "ne", "gt", "ge", "lt", "le",
           "logical_and", "logical_or", "logical_xor")
_UNARY = ("relu", "gelu", "exp", "log", "sqrt", "rsqrt", "neg", "abs", "sigmoid", "tanh", "reciprocal", "sin",
          "cos", "erf", "floor", "ceil", "silu", "sign", "logical_not", "square")
_REDUCTIONS = ("sum", "mean", "max", "min")
_FIDELITY = {"lofi": "LoFi", "hifi2": "HiFi2", "hifi3": "HiFi3", "hifi4": "HiFi4"}
_ELEMENTS = {"f32": "float32", "bf16": "bfloat16", "si32": "int32", "i32": "int32", "ui32": "uint32",
             "ui16": "uint16", "ui8": "uint8", "i1": "bfloat16"}

_HEAD = '''"""Standalone ttnn reproduction (written by ttbench; needs numpy and ttnn only): {title}

{what}
Run on Tenstorrent's simulator (ttnn's environment, the simulator's variables set):
    {command}
The golden is ttbench's interpreter's value of this op (torch, the op's documented semantics), inputs.npz the
operands it was given. The op's text in the TTNN program:
    {text}
"""
import os
import sys

import numpy as np
import ttnn

HERE = os.path.dirname(os.path.abspath(__file__))
MIN_PCC = {min_pcc!r}
STATED = {stated!r}  # what ttbench saw: a PCC, or the simulator's last words
data = np.load(os.path.join(HERE, "inputs.npz"))


def placed(array, shape, element, tiled, memory):
    """The array as the IR's type lays it out: element type, tile or row-major, DRAM / L1 / host."""
    dtype = getattr(ttnn, element)
    values = np.asarray(array).reshape(shape)
    floats = dtype in (ttnn.float32, ttnn.bfloat16)
    data_list = (values.astype(np.float32) if floats else values.astype(np.int64)).ravel().tolist()
    tensor = ttnn.Tensor(data_list, list(shape), dtype, ttnn.ROW_MAJOR_LAYOUT)
    if memory != "system_memory":
        config = ttnn.L1_MEMORY_CONFIG if memory == "l1" else ttnn.DRAM_MEMORY_CONFIG
        tensor = ttnn.to_device(tensor, device, memory_config=config)
    if tiled:
        tensor = ttnn.to_layout(tensor, ttnn.TILE_LAYOUT)
    return tensor


def on_host(tensor, shape):
    if ttnn.is_tensor_storage_on_device(tensor):
        tensor = ttnn.from_device(tensor)
    if tensor.layout != ttnn.ROW_MAJOR_LAYOUT:
        tensor = ttnn.to_layout(tensor, ttnn.ROW_MAJOR_LAYOUT)
    if tensor.dtype == ttnn.bfloat16:
        tensor = ttnn.to_dtype(tensor, ttnn.float32)
    return np.asarray(tensor.to_numpy()).reshape(shape)


def pcc(a, b):
    a, b = np.asarray(a, np.float64).ravel(), np.asarray(b, np.float64).ravel()
    da, db = a - a.mean(), b - b.mean()
    denom = np.sqrt((da * da).sum() * (db * db).sum())
    return float(np.clip((da * db).sum() / denom, -1.0, 1.0)) if denom else float(np.allclose(a, b))


device = ttnn.open_device(device_id=0, l1_small_size=32768)
try:
'''

_TAIL = '''    result = on_host(out, {shape!r})
finally:
    ttnn.close_device(device)
found = pcc(result, data["golden"])
print("PCC %.6f against the golden (ttbench saw %s), threshold %s" % (found, STATED, MIN_PCC))
if found < MIN_PCC:
    print("FAIL: PCC %.6f below %s" % (found, MIN_PCC))
    sys.exit(1)
print("no divergence")
'''


def layout_of(t: TensorType) -> tuple:
    """(tiled, memory, element held) from a TTNN tensor type's layout, as the replay reads it."""
    enc = t.encoding or ""
    m = re.search(r"memref<([^>]*?)(!ttcore\.tile<[^>]*>)?[, ]*#(\w+)", enc)
    memory = m.group(3) if m else "system_memory"
    held = t.element
    tile = re.search(r"!ttcore\.tile<\d+x\d+, (\w+)>", enc)
    if tile:
        held = tile.group(1)
    return "!ttcore.tile" in enc, memory, held


def _compute_config(p: ProgramOp) -> str:
    config = p.attributes.get("compute_config")
    body = getattr(config, "body", "") or ""
    kwargs = []
    m = re.search(r"math_fidelity = (\w+)", body)
    if m and m.group(1) in _FIDELITY:
        kwargs.append(f"math_fidelity=ttnn.MathFidelity.{_FIDELITY[m.group(1)]}")
    for flag in ("fp32_dest_acc_en", "packer_l1_acc", "math_approx_mode", "dst_full_sync_en"):
        m = re.search(flag + r" = (true|false)", body)
        if m:
            kwargs.append(f"{flag}={m.group(1) == 'true'}")
    return f"ttnn.WormholeComputeKernelConfig({', '.join(kwargs)})" if kwargs else ""


def _number(value) -> float:
    return float(getattr(value, "value", value))


def _call(p: ProgramOp, names: list) -> Optional[str]:
    """The ttnn call for the op on the placed operands `names`; None for a kind without a writer."""
    kind = p.name.split(".", 1)[1]
    a = p.attributes
    config = _compute_config(p)
    if kind in _BINARY and not any(a.get(k) for k in ("activations", "input_tensor_a_activations",
                                                       "input_tensor_b_activations")):
        return f"ttnn.{kind}({names[0]}, {names[1]})"
    if kind in _UNARY:
        return f"ttnn.{kind}({names[0]})"
    if kind == "where":
        return f"ttnn.where({names[0]}, {names[1]}, {names[2]})"
    if kind in ("matmul", "linear") and not a.get("activation"):
        args = [f"transpose_a={bool(a.get('transpose_a', False))}", f"transpose_b={bool(a.get('transpose_b', False))}"]
        if config:
            args.append(f"compute_kernel_config={config}")
        if kind == "linear":
            bias = names[2] if len(names) > 2 else "None"
            return f"ttnn.linear({names[0]}, {names[1]}, bias={bias}, {', '.join(args)})"
        return f"ttnn.matmul({names[0]}, {names[1]}, {', '.join(args)})"
    if kind in _REDUCTIONS:
        args = [f"keepdim={bool(a.get('keep_dim', False))}"]
        dims = a.get("dim_arg")
        if dims is not None:
            dims = [int(_number(d)) for d in dims]
            args.append(f"dim={dims[0] if len(dims) == 1 else dims!r}")
        if config:
            args.append(f"compute_kernel_config={config}")
        return f"ttnn.{kind}({names[0]}, {', '.join(args)})"
    if kind == "conv2d":
        return _conv2d_call(p, names, config)
    if kind == "max_pool2d":
        pair = lambda name: [int(_number(x)) for x in a[name]]  # noqa: E731
        return (f"ttnn.max_pool2d({names[0]}, batch_size={int(_number(a['batch_size']))}, "
                f"input_h={int(_number(a['input_height']))}, input_w={int(_number(a['input_width']))}, "
                f"channels={int(_number(a['channels']))}, kernel_size={pair('kernel_size')}, "
                f"stride={pair('stride')}, padding={pair('padding')}, dilation={pair('dilation')}, "
                f"ceil_mode={bool(a.get('ceil_mode', False))})")
    if kind == "softmax":
        args = [str(int(_number(a["dimension"]))), f"numeric_stable={bool(a.get('numericStable', False))}"]
        if config:
            args.append(f"compute_kernel_config={config}")
        return f"ttnn.softmax({names[0]}, {', '.join(args)})"
    return None


def _conv2d_call(p: ProgramOp, names: list, config: str) -> Optional[str]:
    """ttnn.conv2d as the replay calls it: the IR's geometry, conv2d_config's weights type (a fused activation
    gets no script yet), the compute config."""
    a = p.attributes
    body = getattr(a.get("conv2d_config"), "body", "") or ""
    if re.search(r"activation = <", body):
        return None
    weights = re.search(r"weights_dtype = (\w+)", body)
    conv_config = ""
    if weights:
        if weights.group(1) not in _ELEMENTS:
            return None
        conv_config = f"conv_config=ttnn.Conv2dConfig(weights_dtype=ttnn.{_ELEMENTS[weights.group(1)]}), "
    ints = lambda name: [int(_number(x)) for x in a[name]]  # noqa: E731
    bias = names[2] if len(names) > 3 else "None"  # the last operand is the device
    compute = f", compute_config={config}" if config else ""
    return (f"ttnn.conv2d(input_tensor={names[0]}, weight_tensor={names[1]}, bias_tensor={bias}, device=device, "
            f"{conv_config}in_channels={int(_number(a['in_channels']))}, "
            f"out_channels={int(_number(a['out_channels']))}, batch_size={int(_number(a['batch_size']))}, "
            f"input_height={int(_number(a['input_height']))}, input_width={int(_number(a['input_width']))}, "
            f"kernel_size={ints('kernel_size')}, stride={ints('stride')}, padding={ints('padding')}, "
            f"dilation={ints('dilation')}, groups={int(_number(a['groups']))}{compute})")


def docstring_safe(text: str) -> str:
    """Untrusted text (the IR, ttnn's messages, paths) made safe inside the script's docstring."""
    return text.replace("\\", "\\\\").replace('"""', "'''")


def script_for(p: ProgramOp, what: str, stated: str, min_pcc: float, command: str) -> tuple:
    """(script text, None) for op `p`, or (None, why not). Its inputs.npz holds operand_<i> (the tensor operands,
    by position) and golden."""
    if not p.result_types or p.result_types[0] is None:
        return None, f"{p.name} gives no tensor: no standalone script"
    names = ["device" if t is None else f"operand_{i}" for i, t in enumerate(p.operand_types)]
    call = _call(p, names)
    if call is None:
        return None, f"no standalone ttnn script for {p.name} with these attributes yet"
    where = f" at {p.op.location.short}" if p.op.location else ""
    text = _HEAD.format(title=docstring_safe(f"{p.name} #{p.op.index}{where}"), what=docstring_safe(what),
                        command=docstring_safe(command), text=docstring_safe(p.op.text.strip()[:2000]),
                        min_pcc=min_pcc, stated=stated)
    for name, t in zip(names, p.operand_types):
        if t is None:
            continue  # the device the script opened
        tiled, memory, held = layout_of(t)
        if held not in _ELEMENTS:
            return None, f"{name} of {p.name} holds {held}, which the script does not place"
        text += (f"    {name} = placed(data[{name!r}], {list(t.shape)!r}, {_ELEMENTS[held]!r}, "
                 f"{tiled}, {memory!r})\n")
    text += f"    out = {call}\n"
    text += _TAIL.format(shape=list(p.result_types[0].shape))
    return text, None
