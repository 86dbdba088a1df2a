"""The TTNN program replayed as ttnn calls on a simulated chip: the child process of the simulator executor.

Runs in the Python 3.12 side environment (`make sim-env`), as a plain script: it imports ttnn, numpy and the
standard library, never ttbench or torch. The parent (executor.py) hands it the program as JSON (tt/program.py's
model: functions, ops, operands, attributes, result types with their layouts) and the arguments as .npy files;
it writes each op's value when asked (`record`), a line per op to the progress file *before* the op runs (so a
simulator that `_Exit`s mid-op is pinned to its op), and the outputs.

    python replay.py JOB_FOLDER

JOB_FOLDER/program.json, JOB_FOLDER/args/<i>.npy, optional JOB_FOLDER/seed/<function>/<ssa>.npy (isolated mode:
an op's operands are taken from these host values, the interpreter's, instead of from the simulated chip, so each
op's error is its own); writes JOB_FOLDER/progress (lines "start <index>" / "done <index> <seconds> <how>"),
JOB_FOLDER/values/<index>.npy, JOB_FOLDER/outputs/<i>.npy, JOB_FOLDER/result.json. Mode "capture" (a mock device,
no simulator) replays under ttnn's graph capture and writes ttnn's peak L1 figures into result.json instead.
"""
import json
import os
import re
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "proc"))
from parent_watch import watch_parent  # noqa: E402 - plain modules beside ttbench's other child scripts
from shm_cleanup import clean_up_after_this_process  # noqa: E402

HOST = "host"  # how an op computed on the host (ttnn lacks it) is marked


class Unsupported(Exception):
    pass


class ShapeDisagrees(Exception):
    """ttnn computed a result of another shape than the op's result type: ttnn and the compiler read the op's
    attributes differently (not the replay's bug: it passed them as the IR holds them)."""


def ttnn_dtype(ttnn, element):
    # booleans (i1) live on the device as bf16 0/1, as tt-mlir lays them out
    table = {"f32": ttnn.float32, "bf16": ttnn.bfloat16, "si32": ttnn.int32, "i32": ttnn.int32,
             "ui32": ttnn.uint32, "ui16": ttnn.uint16, "ui8": ttnn.uint8, "i1": ttnn.bfloat16}
    if element not in table:
        raise Unsupported(f"element type {element}")
    return table[element]


def read_layout(t):
    """From a result type's encoding: tiled or row-major, the memory it lives in, the element type held."""
    enc = t.get("encoding") or ""
    m = re.search(r"memref<([^>]*?)(!ttcore\.tile<[^>]*>)?[, ]*#(\w+)", enc)
    tiled = "!ttcore.tile" in enc
    memory = m.group(3) if m else "system_memory"
    held = t["element"]
    tile = re.search(r"!ttcore\.tile<\d+x\d+, (\w+)>", enc)
    if tile:
        held = tile.group(1)
    else:
        flat = re.search(r"memref<[\dx]*?(bf16|f32|f16|si32|ui32|ui16|ui8|i32|i1)\b", enc)
        if flat:
            held = flat.group(1)
    return tiled, memory, held


_SHARDED = ("width_sharded", "height_sharded", "block_sharded")


def read_sharding(t):
    """(memory layout, core ranges [(x0, y0, x1, y1)], shard shape in elements) of a sharded layout, as its encoding
    states them (`<width_sharded>`, `core_ranges = <[#ttnn.core_range<(0,0), (1,0)>]>`, the memref per core); None
    for an interleaved or host tensor."""
    enc = t.get("encoding") or ""
    kind = re.search(r"<(" + "|".join(_SHARDED) + r")>", enc)
    if kind is None:
        return None
    ranges = [tuple(int(v) for v in r) for r in
              re.findall(r"core_range<\((\d+), ?(\d+)\), ?\((\d+), ?(\d+)\)>", enc)]
    if not ranges:  # no ranges written: the grid, from the first core
        grid = re.search(r"<(\d+)x(\d+)>", enc)
        if grid is None:
            raise Unsupported(f"a sharded layout with neither core ranges nor a grid: {enc[:160]}")
        ranges = [(0, 0, int(grid.group(2)) - 1, int(grid.group(1)) - 1)]
    memref = re.search(r"memref<((?:\d+x)+)", enc)
    dims = [int(d) for d in memref.group(1).rstrip("x").split("x")] if memref else []
    if len(dims) != 2:
        raise Unsupported(f"a sharded layout whose shard is not 2-D: {enc[:160]}")
    tile = re.search(r"!ttcore\.tile<(\d+)x(\d+)", enc)
    shard = [dims[0] * int(tile.group(1)), dims[1] * int(tile.group(2))] if tile else dims
    return kind.group(1), ranges, shard


class Replay:
    def __init__(self, ttnn, device, program, job, record, seeded):
        self.ttnn, self.device, self.program, self.job = ttnn, device, program, job
        self.record, self.seeded = record, seeded
        self.healed = frozenset(program.get("healed", ()))  # chained: ops whose results are seeded, not computed
        self.cache = {}
        self.progress = open(os.path.join(job, "progress"), "a", buffering=1)
        self.started = None  # the index of the op running (a ttnn refusal names it)
        self.sharded = 0  # op results placed sharded, as their types state
        self.capture = program.get("mode") == "capture"  # under ttnn's graph capture: nothing computed

    # -- tensors --------------------------------------------------------------------------------------------
    def memory_config(self, memory):
        return self.ttnn.L1_MEMORY_CONFIG if memory == "l1" else self.ttnn.DRAM_MEMORY_CONFIG

    def sharded_config(self, sharding, memory):
        """The memory config of a sharded layout (read_sharding's reading of it) in `memory`: over its core ranges
        with its shard shape (the optimizer's placement, honoured rather than flattened to interleaved)."""
        ttnn = self.ttnn
        kind, ranges, shard = sharding
        cores = ttnn.CoreRangeSet({ttnn.CoreRange(ttnn.CoreCoord(x0, y0), ttnn.CoreCoord(x1, y1))
                                   for x0, y0, x1, y1 in ranges})
        spec = ttnn.ShardSpec(cores, shard, ttnn.ShardOrientation.ROW_MAJOR)
        layout = {"width_sharded": ttnn.TensorMemoryLayout.WIDTH_SHARDED,
                  "height_sharded": ttnn.TensorMemoryLayout.HEIGHT_SHARDED,
                  "block_sharded": ttnn.TensorMemoryLayout.BLOCK_SHARDED}[kind]
        return ttnn.MemoryConfig(layout, ttnn.BufferType.L1 if memory == "l1" else ttnn.BufferType.DRAM, spec)

    def from_host(self, array, t):
        """A host array as the tensor type `t` says: element type, layout, placement."""
        ttnn = self.ttnn
        tiled, memory, held = read_layout(t)
        shape = list(t["shape"])
        dtype = ttnn_dtype(ttnn, held)
        values = np.asarray(array).reshape(shape)
        if dtype in (ttnn.float32, ttnn.bfloat16):
            data = values.astype(np.float32).ravel().tolist()
        else:
            data = values.astype(np.int64).ravel().tolist()
        tensor = ttnn.Tensor(data, shape, dtype, ttnn.ROW_MAJOR_LAYOUT)
        if memory != "system_memory":
            tensor = ttnn.to_device(tensor, self.device, memory_config=self.memory_config(memory))
        if tiled:
            tensor = ttnn.to_layout(tensor, ttnn.TILE_LAYOUT)
        sharding = read_sharding(t) if memory != "system_memory" else None
        if sharding is not None:  # laid out first, then sharded
            tensor = ttnn.to_memory_config(tensor, self.sharded_config(sharding, memory))
        return tensor

    def to_host(self, tensor, t):
        ttnn = self.ttnn
        if ttnn.is_tensor_storage_on_device(tensor):
            tensor = ttnn.from_device(tensor)
        if tensor.layout != ttnn.ROW_MAJOR_LAYOUT:
            tensor = ttnn.to_layout(tensor, ttnn.ROW_MAJOR_LAYOUT)
        if tensor.dtype == ttnn.bfloat16:
            tensor = ttnn.to_dtype(tensor, ttnn.float32)
        array = np.asarray(tensor.to_numpy())
        return array.reshape(t["shape"]) if t else array

    def conform(self, tensor, t):
        """`tensor` moved, retiled and retyped to the result type `t` (to_layout, to_device, from_device,
        typecast and to_memory_config are all this, read from the result's own type)."""
        ttnn = self.ttnn
        tiled, memory, held = read_layout(t)
        on_device = ttnn.is_tensor_storage_on_device(tensor)
        if memory == "system_memory" and on_device:
            tensor = ttnn.from_device(tensor)
            on_device = False
        want = ttnn_dtype(ttnn, held)
        layout = ttnn.TILE_LAYOUT if tiled else ttnn.ROW_MAJOR_LAYOUT
        sharding = read_sharding(t) if memory != "system_memory" else None
        if memory != "system_memory" and not on_device:
            tensor = ttnn.to_device(tensor, self.device, memory_config=self.memory_config(memory))
        elif memory != "system_memory" and tensor.memory_config() != self.memory_config(memory):
            # a kernel's own output placement (conv2d: sharded L1) where the IR states another; a sharded result
            # is re-laid out interleaved first and sharded last
            tensor = ttnn.to_memory_config(tensor, self.memory_config(memory))
        if tensor.layout != layout:
            tensor = ttnn.to_layout(tensor, layout)
        if tensor.dtype != want:
            tensor = ttnn.typecast(tensor, want) if ttnn.is_tensor_storage_on_device(tensor) else \
                ttnn.to_dtype(tensor, want)
        if sharding is not None:  # the optimizer's placement, as the type states it
            tensor = ttnn.to_memory_config(tensor, self.sharded_config(sharding, memory))
            self.sharded += 1
        return tensor

    # -- the walk ---------------------------------------------------------------------------------------------
    def call(self, name, inputs):
        fn = self.program["functions"][name]
        env = dict(zip(fn["arguments"], inputs))
        for op in fn["ops"]:
            kind = op["name"]
            if kind == "ttnn.deallocate":
                if self.capture:  # ttnn's allocations are what is measured: free where the program frees
                    tensor = env[op["operands"][0]]
                    if self.ttnn.is_tensor_storage_on_device(tensor):
                        self.ttnn.deallocate(tensor, force=bool(op["attributes"].get("force", False)))
                continue  # otherwise Python frees the value with its last reference
            args = [env[operand] for operand in op["operands"]]
            self.progress.write(f"start {op['index']}\n")
            self.started = op["index"]
            t0 = time.perf_counter()
            how = "ttnn"
            if op["index"] in self.healed:  # drift: this op's exact results (the interpreter's) stand in
                results = [self.from_host(np.load(self.seeded[(name, r)]), t) if (name, r) in self.seeded else
                           None for r, t in zip(op["results"], op["result_types"])]
                self.progress.write(f"done {op['index']} 0 healed\n")
                env.update(zip(op["results"], results))
                continue
            if kind == "ttcore.load_cached":
                if op["callee"] not in self.cache:
                    self.cache[op["callee"]] = self.call(op["callee"], args)
                results = self.cache[op["callee"]]
            else:
                results, how = self.execute(op, args)
            results = results if isinstance(results, list) else [results]
            seconds = time.perf_counter() - t0
            if self.record and results and op["result_types"] and op["result_types"][0] is not None:
                np.save(os.path.join(self.job, "values", f"{op['index']}.npy"),
                        self.to_host(results[0], op["result_types"][0]))
            self.progress.write(f"done {op['index']} {seconds:.6f} {how}\n")
            env.update(zip(op["results"], results))
        return [env[r] for r in fn["returns"]]

    def isolated(self, skip_through):
        """Every op of every function on its seeded operands (the interpreter's values), in program order: each
        op's error is its own. Ops up to `skip_through` were done by an earlier child (one that the simulator
        left at the op after them)."""
        for name, fn in self.program["functions"].items():
            for op in fn["ops"]:
                if op["name"] in ("ttnn.deallocate", "ttcore.load_cached", "ttnn.get_device") or \
                        op["index"] <= skip_through:
                    continue
                self.progress.write(f"start {op['index']}\n")
                self.started = op["index"]
                t0 = time.perf_counter()
                try:
                    args = [self.device if t is None else self.from_host(np.load(self._seed(name, operand, op)), t)
                            for operand, t in zip(op["operands"], op["operand_types"])]
                    results, how = self.execute(op, args)
                    results = results if isinstance(results, list) else [results]
                    if results and op["result_types"] and op["result_types"][0] is not None:
                        np.save(os.path.join(self.job, "values", f"{op['index']}.npy"),
                                self.to_host(results[0], op["result_types"][0]))
                except Unsupported:
                    raise
                except Exception as exc:  # this op's row says what happened; the next op goes on
                    kind = "bug" if is_ours(exc) else "failed"
                    self.progress.write(f"{kind} {op['index']} {json.dumps(f'{type(exc).__name__}: {exc}'[:800])}\n")
                    continue
                self.progress.write(f"done {op['index']} {time.perf_counter() - t0:.6f} {how}\n")

    def _seed(self, function, operand, op):
        seed = self.seeded.get((function, operand))
        if seed is None:
            raise Unsupported(f"no value to seed {operand} of {op['name']} #{op['index']} with")
        return seed

    def execute(self, op, args):
        if os.environ.get("TTBENCH_TTSIM_REPLAY_FAULT") == f"bug:{op['name']}":  # tests: a bug of the replay's own
            raise KeyError(f"planted replay bug at {op['name']}")
        kind = op["name"].split(".", 1)[1]
        handler = OPS.get(kind)
        if handler is None:
            raise Unsupported(op["name"])
        result = handler(self, op, args)
        if isinstance(result, tuple) and result and result[0] == HOST:
            return result[1], HOST
        out_types = op["result_types"]
        if out_types and out_types[0] is not None and not isinstance(result, list):
            result = self.conform(result, out_types[0])
            got = [int(d) for d in result.shape]
            if got != list(out_types[0]["shape"]):
                raise ShapeDisagrees(f"ttnn's result has shape {got}, the op's result type says "
                                     f"{list(out_types[0]['shape'])}: ttnn and the compiler read this op's "
                                     f"attributes differently")
        return result, "ttnn"


# ---- op kinds: attribute reading kept beside the call it feeds ---------------------------------------------------

def _number(v):
    return v["value"] if isinstance(v, dict) and "value" in v else v


def _shape(v):
    if isinstance(v, dict) and v.get("opaque") == "#ttnn.shape":
        return [int(x) for x in v["body"].split("x") if x]
    return [int(_number(x)) for x in v]


def _unary_params(ttnn, activations):
    out = []
    for a in activations or []:
        m = re.search(r"op_type = (\w+)(?:, params = \[([^\]]*)\])?", a.get("body", ""))
        if not m:
            raise Unsupported(f"fused activation {a}")
        kind = getattr(ttnn.UnaryOpType, m.group(1).upper(), None)
        if kind is None:
            raise Unsupported(f"fused activation {m.group(1)}")
        params = [float(p.split(":")[0]) for p in (m.group(2) or "").split(",") if p.strip()]
        out.append(ttnn.UnaryWithParam(kind, *params) if params else ttnn.UnaryWithParam(kind))
    return out


def _compute_config(ttnn, attrs):
    cfg = attrs.get("compute_config")
    if not isinstance(cfg, dict) or "body" not in cfg:
        return None
    body = cfg["body"]
    kwargs = {}
    m = re.search(r"math_fidelity = (\w+)", body)
    if m:
        kwargs["math_fidelity"] = {"lofi": ttnn.MathFidelity.LoFi, "hifi2": ttnn.MathFidelity.HiFi2,
                                   "hifi3": ttnn.MathFidelity.HiFi3, "hifi4": ttnn.MathFidelity.HiFi4}[m.group(1)]
    for flag in ("fp32_dest_acc_en", "packer_l1_acc", "math_approx_mode", "dst_full_sync_en"):
        m = re.search(flag + r" = (true|false)", body)
        if m:
            kwargs[flag] = m.group(1) == "true"
    return ttnn.WormholeComputeKernelConfig(**kwargs)


def _with_compute_config(ttnn, attrs, keyword):
    cfg = _compute_config(ttnn, attrs)
    return {keyword: cfg} if cfg is not None else {}


def _binary(name):
    def run(r, op, args):
        a = op["attributes"]
        fn = getattr(r.ttnn, name)
        kwargs = {}
        if a.get("activations"):
            kwargs["activations"] = _unary_params(r.ttnn, a["activations"])
        if a.get("input_tensor_a_activations"):
            kwargs["input_tensor_a_activations"] = _unary_params(r.ttnn, a["input_tensor_a_activations"])
        if a.get("input_tensor_b_activations"):
            kwargs["input_tensor_b_activations"] = _unary_params(r.ttnn, a["input_tensor_b_activations"])
        return fn(args[0], args[1], **kwargs)
    return run


def _unary(name):
    return lambda r, op, args: getattr(r.ttnn, name)(args[0])


def _creation(fill):
    def run(r, op, args):
        t = op["result_types"][0]
        tiled, memory, held = read_layout(t)
        value = fill if fill is not None else float(_number(op["attributes"]["fill_value"]))
        layout = r.ttnn.TILE_LAYOUT if tiled else r.ttnn.ROW_MAJOR_LAYOUT
        device = r.device if memory != "system_memory" else None
        kwargs = {"memory_config": r.memory_config(memory)} if device is not None else {}
        return r.ttnn.full(list(t["shape"]), fill_value=value, dtype=ttnn_dtype(r.ttnn, held), layout=layout,
                           device=device, **kwargs)
    return run


def _matmul(r, op, args):
    a = op["attributes"]
    kwargs = {"transpose_a": bool(a.get("transpose_a", False)), "transpose_b": bool(a.get("transpose_b", False))}
    cfg = _compute_config(r.ttnn, a)
    if cfg is not None:
        kwargs["compute_kernel_config"] = cfg
    if a.get("activation"):  # ttnn's string form ("gelu", "relu"), as the IR holds it
        kwargs["activation"] = str(a["activation"])
    if op["name"].endswith("linear"):
        bias = args[2] if len(args) > 2 else None
        return r.ttnn.linear(args[0], args[1], bias=bias, **kwargs)
    return r.ttnn.matmul(args[0], args[1], **kwargs)


def _rows_gather_on_host(r, op, args):
    """tt-mlir's gather, which the ttnn wheel lacks: computed on the host from the device's operands, marked.
    The K index components (indices' dimension 1) address a row-major grid of `sizes`; column=true gathers single
    elements of the input flattened, false whole rows (the interpreter's reading, tt/interp/handlers.py)."""
    a = op["attributes"]
    if any(int(_number(w)) != 1 for w in a.get("windows", [])) or a.get("fill_out_of_bounds"):
        raise Unsupported(f"ttnn.rows_gather with windows {a.get('windows')} / fill_out_of_bounds")
    data = r.to_host(args[0], op["operand_types"][0])
    indices = r.to_host(args[1], op["operand_types"][1]).astype(np.int64)
    sizes = [int(_number(x)) for x in a["sizes"]]
    components = indices[0]
    flat = np.zeros(components.shape[1], dtype=np.int64)
    for k, size in enumerate(sizes):
        if ((components[k] < 0) | (components[k] >= size)).any():
            raise RuntimeError(f"rows_gather index component {k} outside 0..{size - 1}")
        flat = flat * size + components[k]
    rows = int(np.prod(sizes))
    gathered = data.reshape(-1)[flat] if a.get("column") else data.reshape(rows, -1)[flat]
    t = op["result_types"][0]
    return HOST, [r.from_host(gathered.reshape(t["shape"]), t)]


def _reduction(name):
    def run(r, op, args):
        a = op["attributes"]
        dims = a.get("dim_arg")
        kwargs = {"keepdim": bool(a.get("keep_dim", False))}
        if dims is not None:
            dims = [int(_number(d)) for d in dims]
            kwargs["dim"] = dims[0] if len(dims) == 1 else dims
        cfg = _compute_config(r.ttnn, a)
        if cfg is not None:
            kwargs["compute_kernel_config"] = cfg
        return getattr(r.ttnn, name)(args[0], **kwargs)
    return run


def _segments(op, rest, names):
    """Optional operands by name, as operandSegmentSizes says which are present (positional when absent)."""
    sizes = op["attributes"].get("operandSegmentSizes")
    counts = [int(_number(c)) for c in sizes][1:] if isinstance(sizes, list) else [1] * len(rest)
    found, at = {}, 0
    for name, count in zip(names, counts):
        if count and at < len(rest):
            found[name] = rest[at]
            at += count
    return found


def _arange(r, op, args):
    a, t = op["attributes"], op["result_types"][0]
    tiled, memory, held = read_layout(t)
    return r.ttnn.arange(int(_number(a["start"])), int(_number(a["end"])), int(_number(a["step"])),
                         dtype=ttnn_dtype(r.ttnn, held), device=r.device,
                         layout=r.ttnn.TILE_LAYOUT if tiled else r.ttnn.ROW_MAJOR_LAYOUT)


def _slice(r, op, args):
    a = op["attributes"]
    return r.ttnn.slice(args[0], [int(_number(x)) for x in a["begins"]], [int(_number(x)) for x in a["ends"]],
                        [int(_number(x)) for x in a["step"]])


def _conv_config(r, attrs) -> dict:
    """conv2d_config's fields that change values (its fused activation, the weights' element type) as ttnn's
    Conv2dConfig; the parent refuses a program with any other value-changing field (executor.replay_refusal)."""
    cfg = attrs.get("conv2d_config")
    body = cfg.get("body", "") if isinstance(cfg, dict) else ""
    kwargs = {}
    m = re.search(r"weights_dtype = (\w+)", body)
    if m:
        kwargs["weights_dtype"] = ttnn_dtype(r.ttnn, m.group(1))
    m = re.search(r"activation = (<[^>]*>)", body)
    if m:
        kwargs["activation"] = _unary_params(r.ttnn, [{"body": m.group(1)}])[0]
    return {"conv_config": r.ttnn.Conv2dConfig(**kwargs)} if kwargs else {}


def _conv_arguments(r, op, args) -> dict:
    """What conv2d and conv_transpose2d take alike, as the IR gives it (a padding of 2 or 4 values: ttnn reads
    both forms), conv2d_config's value-changing fields included."""
    a = op["attributes"]
    return dict(**_conv_config(r, a), input_tensor=args[0], weight_tensor=args[1],
                bias_tensor=args[2] if len(args) > 3 else None, device=r.device, in_channels=int(_number(a["in_channels"])),
                out_channels=int(_number(a["out_channels"])), batch_size=int(_number(a["batch_size"])),
                input_height=int(_number(a["input_height"])), input_width=int(_number(a["input_width"])),
                kernel_size=_shape(a["kernel_size"]), stride=_shape(a["stride"]), padding=_shape(a["padding"]),
                dilation=_shape(a["dilation"]), groups=int(_number(a["groups"])),
                **_with_compute_config(r.ttnn, a, "compute_config"))


def _conv2d(r, op, args):
    return r.ttnn.conv2d(**_conv_arguments(r, op, args))


def _conv_transpose2d(r, op, args):
    """The weight as the IR holds it, [in, out/groups, kH, kW], which ttnn mirrors itself (mirror_kernel's
    default: a 3x3 kernel matches PyTorch so)."""
    return r.ttnn.conv_transpose2d(**_conv_arguments(r, op, args),
                                   output_padding=_shape(op["attributes"]["output_padding"]))


def _max_pool2d(r, op, args):
    a = op["attributes"]
    pair = lambda name: [int(_number(x)) for x in a[name]]  # noqa: E731
    return r.ttnn.max_pool2d(args[0], batch_size=int(_number(a["batch_size"])),
                             input_h=int(_number(a["input_height"])), input_w=int(_number(a["input_width"])),
                             channels=int(_number(a["channels"])), kernel_size=pair("kernel_size"),
                             stride=pair("stride"), padding=pair("padding"), dilation=pair("dilation"),
                             ceil_mode=bool(a.get("ceil_mode", False)))


def _avg_pool2d(r, op, args):
    """ttnn.avg_pool2d as the IR states it; divisor_override (tt-mlir's sum pool, 1) and count_include_pad
    handed over."""
    a = op["attributes"]
    pair = lambda name: [int(_number(x)) for x in a[name]]  # noqa: E731
    divisor = a.get("divisor_override")
    return r.ttnn.avg_pool2d(args[0], batch_size=int(_number(a["batch_size"])),
                             input_h=int(_number(a["input_height"])), input_w=int(_number(a["input_width"])),
                             channels=int(_number(a["channels"])), kernel_size=pair("kernel_size"),
                             stride=pair("stride"), padding=pair("padding"),
                             ceil_mode=bool(a.get("ceil_mode", False)),
                             count_include_pad=bool(a.get("count_include_pad", True)),
                             divisor_override=None if divisor is None else int(_number(divisor)))


OPS = {
    "get_device": lambda r, op, args: [r.device],
    "to_device": lambda r, op, args: args[0], "from_device": lambda r, op, args: args[0],
    "to_layout": lambda r, op, args: args[0], "typecast": lambda r, op, args: args[0],
    "to_memory_config": lambda r, op, args: args[0],
    "full": _creation(None), "ones": _creation(1.0), "zeros": _creation(0.0),
    "reshape": lambda r, op, args: r.ttnn.reshape(args[0], _shape(op["attributes"]["shape"])),
    "permute": lambda r, op, args: r.ttnn.permute(args[0], [int(_number(x)) for x in
                                                               op["attributes"]["permutation"]]),
    "clamp_scalar": lambda r, op, args: r.ttnn.clamp(args[0], float(_number(op["attributes"]["min"])),
                                                      float(_number(op["attributes"]["max"]))),
    "softmax": lambda r, op, args: r.ttnn.softmax(
        args[0], int(_number(op["attributes"]["dimension"])),
        numeric_stable=bool(op["attributes"].get("numericStable", False)),
        **_with_compute_config(r.ttnn, op["attributes"], "compute_kernel_config")),
    "matmul": _matmul, "linear": _matmul,
    "rows_gather": _rows_gather_on_host,
    "arange": _arange, "slice_static": _slice, "conv2d": _conv2d, "max_pool2d": _max_pool2d,
    "avg_pool2d": _avg_pool2d,
    "conv_transpose2d": _conv_transpose2d,
    "concat": lambda r, op, args: r.ttnn.concat(args, int(_number(op["attributes"]["dim"]))),
    "repeat": lambda r, op, args: r.ttnn.repeat(args[0], _shape(op["attributes"]["repeat_dims"])),
    "where": lambda r, op, args: r.ttnn.where(args[0], args[1], args[2]),
    "cumsum": lambda r, op, args: r.ttnn.cumsum(args[0], int(_number(op["attributes"]["dim"]))),
    "constant": lambda r, op, args: r.from_host(np.load(os.path.join(r.job, "constants", f"{op['index']}.npy")),
                                                op["result_types"][0]),
    "pad": lambda r, op, args: r.ttnn.pad(
        args[0], [tuple(int(_number(x)) for x in pair) for pair in zip(op["attributes"]["padding"][0::2],
                                                                        op["attributes"]["padding"][1::2])],
        float(_number(op["attributes"].get("value", 0.0))),
        use_multicore=bool(op["attributes"].get("use_multicore", True))),
    "transpose": lambda r, op, args: r.ttnn.transpose(args[0], int(_number(op["attributes"]["dim0"])),
                                                      int(_number(op["attributes"]["dim1"]))),
    "pow_scalar": lambda r, op, args: r.ttnn.pow(args[0], float(_number(op["attributes"]["rhs"]))),
    "pow_tensor": lambda r, op, args: r.ttnn.pow(args[0], args[1]),
    "layer_norm": lambda r, op, args: r.ttnn.layer_norm(
        args[0], epsilon=float(_number(op["attributes"].get("epsilon", 1e-12))),
        **_segments(op, args[1:], ("weight", "bias"))),
}
for _name in ("sum", "mean", "max", "min"):
    OPS[_name] = _reduction(_name)
for _name in ("add", "subtract", "multiply", "divide", "maximum", "minimum", "eq", "ne", "gt", "ge", "lt", "le",
              "logical_and", "logical_or", "logical_xor"):
    OPS[_name] = _binary(_name)
for _name in ("relu", "gelu", "exp", "log", "sqrt", "rsqrt", "neg", "abs", "sigmoid", "tanh", "reciprocal", "sin",
              "cos", "erf", "floor", "ceil", "silu", "sign", "logical_not", "square"):
    OPS[_name] = _unary(_name)


def is_ours(exc) -> bool:
    """Whether an op's failure is the replay's own bug rather than ttnn's refusal: ttnn's checks arrive as a
    RuntimeError naming TT_FATAL or TT_THROW, and a result ttnn shaped otherwise than the IR is ShapeDisagrees;
    anything else (a KeyError in a handler, a call with wrong arguments) is ttbench's."""
    if isinstance(exc, ShapeDisagrees):
        return False
    return not (isinstance(exc, RuntimeError) and ("TT_FATAL" in str(exc) or "TT_THROW" in str(exc)))


def check(program):
    """Every op kind known before the device opens (an unknown one refuses the run: nothing half-done)."""
    for fn in program["functions"].values():
        for op in fn["ops"]:
            kind = op["name"]
            if kind in ("ttnn.deallocate", "ttcore.load_cached"):
                continue
            if not kind.startswith("ttnn.") or kind.split(".", 1)[1] not in OPS:
                raise Unsupported(f"{kind} (#{op['index']})")


def capture_memory(ttnn, replay, program, job):
    """The main function replayed under ttnn's graph capture with nothing dispatched (a mock device: no values
    exist, only ttnn's allocations): ttnn's own peak L1 figures for the program; with program["report"], also the
    folder ttnn-visualizer opens (JOB/report: db.sqlite, config.json, the capture's graph.json)."""
    main_fn = program["functions"][program["main"]]
    ttnn.graph.begin_graph_capture(ttnn.graph.RunMode.NO_DISPATCH)
    ttnn.graph.disable_python_io_recording()  # its recorder imports torch, which the side env has not
    try:
        inputs = [replay.from_host(np.zeros(t["shape"], np.float32), t) for t in main_fn["argument_types"]]
        replay.call(program["main"], inputs)
    finally:
        if program.get("report"):
            folder = os.path.join(job, "report")
            os.makedirs(folder, exist_ok=True)
            graph = ttnn.graph.end_graph_capture_to_file(os.path.join(folder, "graph.json"))
        else:
            graph = ttnn.graph.end_graph_capture()
    if program.get("report"):
        import ttnn.graph_report  # lazy: sqlite and the visualizer's schema, only for a report

        ttnn.graph_report.import_report(os.path.join(folder, "graph.json"), folder)
        ttnn.save_config_to_json_file(os.path.join(folder, "config.json"))
    usage = ttnn.graph.extract_resource_usage_per_core(graph)
    return {"peak_l1": int(ttnn.graph.extract_peak_L1_memory_usage(graph)),
            "per_core": {"cb": int(usage.peak_cb), "l1": int(usage.peak_l1), "total": int(usage.peak_total)}}


def main(job):
    watch_parent()
    clean_up_after_this_process(os.path.join(job, "cleaner.pid"))
    with open(os.path.join(job, "program.json")) as f:
        program = json.load(f)
    os.makedirs(os.path.join(job, "values"), exist_ok=True)
    os.makedirs(os.path.join(job, "outputs"), exist_ok=True)
    result = {"ok": False}
    try:
        check(program)
    except Unsupported as exc:
        result["unsupported"] = str(exc)
        _write(job, result)
        return 0
    seeded = {}
    seed_root = os.path.join(job, "seed")
    for fn_name in (os.listdir(seed_root) if os.path.isdir(seed_root) else []):
        for file in os.listdir(os.path.join(seed_root, fn_name)):
            seeded[(fn_name, file[:-len(".npy")])] = os.path.join(seed_root, fn_name, file)
    t0 = time.perf_counter()
    import ttnn  # lazy: seconds, and only once the program is known to be replayable

    device = ttnn.open_device(device_id=0, l1_small_size=32768)
    result["open_seconds"] = time.perf_counter() - t0
    replay = Replay(ttnn, device, program, job, program.get("record", False), seeded)
    try:
        if program.get("mode") == "capture":
            result["capture"] = capture_memory(ttnn, replay, program, job)
            result["ok"], result["outputs"] = True, 0
            return 0
        if program.get("mode") == "isolated":
            replay.isolated(program.get("skip_through", -1))
            result["ok"], result["outputs"] = True, 0
            return 0
        main_fn = program["functions"][program["main"]]
        inputs = [replay.from_host(np.load(os.path.join(job, "args", f"{i}.npy")), t)
                  for i, t in enumerate(main_fn["argument_types"])]
        t1 = time.perf_counter()
        outputs = replay.call(program["main"], inputs)
        result["run_seconds"] = time.perf_counter() - t1
        for i, (out, t) in enumerate(zip(outputs, main_fn["return_types"])):
            np.save(os.path.join(job, "outputs", f"{i}.npy"), replay.to_host(out, t))
        result["ok"] = True
        result["outputs"], result["sharded"] = len(outputs), replay.sharded
    except Unsupported as exc:
        result["unsupported"] = str(exc)
    except Exception as exc:  # an op failed: ttnn refused it, or (is_ours) the replay's own code did
        result["op_error"] = {"index": replay.started, "message": f"{type(exc).__name__}: {exc}"[:800],
                              "internal": is_ours(exc)}
    finally:
        ttnn.close_device(device)
        _write(job, result)
    return 0


def _write(job, result):
    tmp = os.path.join(job, "result.json.tmp")
    with open(tmp, "w") as f:
        json.dump(result, f)
    os.replace(tmp, os.path.join(job, "result.json"))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
