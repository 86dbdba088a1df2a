"""Stage `fx`: the FX graph a frontend hands to torch-mlir.

- `capture_export`: torch.export + torch-mlir's decomposition table (functional aten graph, stack traces kept).
- `capture_dynamo`: the graph torch.compile gives a custom backend, brought to aten ops with make_fx — the older
  flow, where in-place aten ops survive. Nothing is cleaned up.
"""
from __future__ import annotations

import copy
import inspect
import itertools
import operator
import types
import re
import time
import traceback
from dataclasses import dataclass, field
from typing import Optional

import torch
import torch.fx

from ..proc.children import ContainedFailure, Forked, in_disposable_job
from .. import core
from ..core import ArgInfo, BadInput, CompilerFailure, Op, Stage, StageName
from ..ir.locations import frames_from_stack_trace, user_frame


# Python's in-place operators as FX records them (`x += y` under dynamo).
_INPLACE_OPERATORS = {operator.setitem, operator.iadd, operator.isub, operator.imul, operator.itruediv,
                      operator.ifloordiv, operator.imod, operator.ipow, operator.iand, operator.ior, operator.ixor,
                      operator.ilshift, operator.irshift, operator.imatmul}


def fx_node_mutates(node) -> bool:
    target = node.target
    if node.op == "call_method":
        return isinstance(target, str) and target.endswith("_") and not target.startswith("_")
    if node.op != "call_function":
        return False
    if target in _INPLACE_OPERATORS:
        return True
    if node.kwargs.get("inplace") is True:
        return True
    if isinstance(target, torch._ops.OpOverload):
        return target._schema.is_mutable
    if getattr(target, "__module__", None) in ("_operator", "operator"):
        return False  # operator.and_, or_, not_ are named like in-place methods; the in-place ones are listed above
    name = getattr(target, "__name__", "")
    return name.endswith("_") and not name.startswith("_")


@dataclass
class FxCapture:
    """What the fx stage hands on to the torch-mlir import."""

    graph_module: torch.fx.GraphModule  # aten-level graph to import; placeholders in `arguments` order
    arguments: list  # list[ArgInfo], one per placeholder of graph_module
    values: list  # the tensors for those placeholders (weights and example inputs)
    shown: torch.fx.GraphModule  # the graph the stage shows (dynamo: the torch-level graph)
    notes: dict = field(default_factory=dict)
    weights: dict = field(default_factory=dict)  # every parameter/buffer/lifted constant: name -> (role, tensor)


def _dtype_name(dtype) -> str:
    return str(dtype).replace("torch.", "")


def _arg_info(name: str, role: str, value) -> ArgInfo:
    return ArgInfo(name=name, role=role, shape=tuple(value.shape), dtype=_dtype_name(value.dtype))


def constant_record(name: str, role: str, value: torch.Tensor) -> dict:
    """A tensor embedded in the graph, as the constant-budget analysis reads it (JSON-serialisable)."""
    return {"name": name, "role": role, "shape": list(value.shape), "dtype": _dtype_name(value.dtype),
            "nbytes": value.numel() * value.element_size()}


def node_op_name(node: torch.fx.Node) -> str:
    target = node.target
    if node.op == "call_method":
        return f"Tensor.{target}"
    if node.op == "call_module":
        return f"module.{target}"
    if isinstance(target, torch._ops.OpOverload):
        return str(target)  # e.g. aten.relu_.default
    if isinstance(target, torch._ops.OpOverloadPacket):
        return f"{target}.overload_packet"
    if target is operator.getitem:
        return "operator.getitem"
    module = getattr(target, "__module__", None) or ""
    name = getattr(target, "__name__", str(target))
    module = module.replace("torch._C._nn", "torch.nn.functional").replace("torch._C._VariableFunctions", "torch")
    return f"{module}.{name}" if module else name


def fx_ops(gm: torch.fx.GraphModule) -> list:
    ops = []
    for node in gm.graph.nodes:
        if node.op not in ("call_function", "call_method", "call_module"):
            continue
        chain = frames_from_stack_trace(node.meta.get("stack_trace"))
        ops.append(Op(index=len(ops), name=node_op_name(node), location=user_frame(chain), chain=chain,
                      text=node.format_node() or "", attrs={"node": node.name, "fx_op": node.op},
                      module=module_path(node)))
    return ops


_DYNAMO_ROOT_RE = re.compile(r"^(?:L\['self'\]|L__self__|self)\.?")
_DYNAMO_INDEX_RE = re.compile(r"\[(?:'([^']*)'|(\d+))\]")


def module_path(node) -> Optional[str]:
    """The dotted path of the innermost module that ran `node` ("features.3.conv.1"; "" for the model itself), as
    torch.export records it; dynamo's spelling (`L['self'].features[3]`) is brought to the same form. None when
    the node carries no module stack."""
    stack = node.meta.get("nn_module_stack")
    if stack is None:
        return None
    if not stack:
        return ""
    path = str(list(stack.values())[-1][0])
    path = _DYNAMO_INDEX_RE.sub(lambda m: "." + (m.group(1) if m.group(1) is not None else m.group(2)),
                                _DYNAMO_ROOT_RE.sub("", path))
    return path.strip(".")


def _graph_text(gm: torch.fx.GraphModule, arguments: list, header: str) -> str:
    lines = [f"# {header}", "# placeholders (in MLIR argument order):"]
    for a in arguments:
        lines.append(f"#   {a.name}: {a.role} {list(a.shape)} {a.dtype}")
    lines.append("")
    for node in gm.graph.nodes:
        chain = frames_from_stack_trace(node.meta.get("stack_trace"))
        loc = user_frame(chain)
        line = node.format_node() or str(node)
        lines.append(f"{line}    # {loc}" if loc else line)
    return "\n".join(lines) + "\n"


def inline_placeholders(capture_gm: torch.fx.GraphModule, placeholders: dict) -> torch.fx.GraphModule:
    """A copy of the graph where the given placeholders (name -> tensor) become `get_attr` constants, so
    torch-mlir embeds them as literals; the other placeholders stay function arguments."""
    graph = torch.fx.Graph()
    value_map: dict = {}
    out = graph.graph_copy(capture_gm.graph, value_map)
    graph.output(out)
    holder = torch.nn.Module()
    anchor = next(n for n in graph.nodes if n.op != "placeholder")  # constants go right after the placeholders
    for node in list(graph.nodes):
        if node.op != "placeholder" or node.name not in placeholders:
            continue
        attr = f"_inlined_{node.name}"
        holder.register_buffer(attr, placeholders[node.name].detach(), persistent=False)
        # One get_attr node per use: torch-mlir's importer binds a get_attr node again at each of its uses (it looks
        # the node up by target name, not by node) and fails on the second ("Node already has a value"). A weight
        # used twice is then two literals in the torch dialect, as the IR really holds it; StableHLO's CSE folds them.
        for user in list(node.users):
            with graph.inserting_before(anchor):
                const = graph.get_attr(attr)
            const.meta = dict(node.meta)
            user.replace_input_with(node, const)
        graph.erase_node(node)
    return torch.fx.GraphModule(holder, graph)


def on_meta(model) -> bool:
    """Whether the module's weights live on the meta device (shapes and dtypes, no storage): built under
    `with torch.device("meta")`, as big LLMs are. Such a model is captured and compiled, never run."""
    return isinstance(model, torch.nn.Module) and any(
        t.is_meta for t in itertools.chain(model.parameters(), model.buffers()))


def keyword_call(model, inputs: dict):
    """Inputs given as a dict by forward's argument names (keyword-only ones included) -> (a model that takes them
    positionally, in the dict's order, and passes each on by its name; the values as a tuple). The model is a
    shallow copy whose own `forward` does that: the same submodules, weights and module paths, a signature that
    names each input (the graphs' argument names), and the user's model untouched. Checked against forward's
    signature first: a name it has no argument for, a value that is not a tensor, a required argument missing."""
    if not isinstance(model, torch.nn.Module):
        raise BadInput(f"inputs by name (a dict) need a torch.nn.Module or an ONNX file, got {type(model).__name__}")
    forward = model.forward
    params = inspect.signature(forward).parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in params.values())
    named = {n: p for n, p in params.items() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
    for key, value in inputs.items():
        if not isinstance(key, str) or (key not in named and not takes_any):
            raise BadInput(f"input {key!r}: {type(model).__name__}.forward has no argument of that name (it takes: "
                           f"{', '.join(named) or 'no named arguments'})")
        if named.get(key) is not None and named[key].kind is inspect.Parameter.POSITIONAL_ONLY:
            raise BadInput(f"input {key!r}: {type(model).__name__}.forward takes it by position only: give the "
                           f"inputs as a tuple")
        if not isinstance(value, torch.Tensor):
            raise BadInput(f"input {key!r} must be a torch.Tensor, got {type(value).__name__}")
    missing = [n for n, p in named.items() if p.default is p.empty and n not in inputs]
    if missing:
        raise BadInput(f"{type(model).__name__}.forward needs {', '.join(map(repr, missing))}, which the inputs "
                       f"(by name: {', '.join(map(repr, inputs)) or 'none'}) do not give")
    names = list(inputs)

    def by_name(self, *values):
        return forward(**dict(zip(names, values)))

    by_name.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in names])
    called = copy.copy(model)
    called.forward = types.MethodType(by_name, called)
    return called, tuple(inputs.values())


def check_inputs(model, inputs) -> None:
    """Bad input is what the user must fix: not a module, not tensors, or inputs the model cannot run on eagerly
    (that is checked once, up front, so a compiler failure is never mistaken for it). The eager run happens in a
    forked copy of this process: a model that aborts or hangs must not take the kernel with it. A model on the
    meta device has no numbers to run: torch.export's own shape propagation is its check."""
    check_input_types(model, inputs)
    if on_meta(model):
        return

    def eager():
        try:
            with torch.no_grad():
                model(*[x.clone() for x in inputs])
        except Exception as exc:  # named with the user's line here: the traceback does not survive the fork
            raise ModelRaised.of(exc) from None

    try:
        check = Forked(eager, core.EAGER_TIMEOUT_S, "the model, run eagerly on the example inputs,")
        _import_tracing_machinery()  # here, while the check runs in its fork: the two overlap
        check.result()
    except ContainedFailure as exc:
        raise BadInput(f"{exc}: fix the model or its inputs") from None
    except ModelRaised as exc:
        raise BadInput(exc.explain()) from None


def check_input_types(model, inputs) -> None:
    """The part of check_inputs that runs nothing: a module, and tensors."""
    if not isinstance(model, torch.nn.Module):
        raise BadInput(f"model must be a torch.nn.Module for this frontend, got {type(model).__name__}")
    for i, x in enumerate(inputs):
        if not isinstance(x, torch.Tensor):
            raise BadInput(f"example input {i} must be a torch.Tensor, got {type(x).__name__}")


def _import_tracing_machinery() -> None:
    """The modules torch imports on its first export or dynamo trace (~0.4 s in a fresh process), imported ahead.
    Imports only: no user code runs and no torch state changes beyond what the trace would do a moment later."""
    import torch._dynamo  # noqa: F401  # lazy: torch's own lazy imports, taken early on purpose
    import torch.export._trace  # noqa: F401  # lazy: as above


class ModelRaised(Exception):
    """The user's forward raised when run eagerly: the exception's type and first line, and the innermost line of
    the user's own code it passed through (file, `In[N]:line` for a notebook cell, and that line's code)."""

    def __init__(self, kind: str, message: str, where: Optional[str], code: Optional[str]):
        super().__init__(kind, message, where, code)
        self.kind, self.message, self.where, self.code = kind, message, where, code

    @classmethod
    def of(cls, exc: BaseException) -> "ModelRaised":
        frames = tuple(core.magic_cell_location(f.filename, f.lineno or 0, f.name)
                       or core.SourceLoc(f.filename, f.lineno or 0)
                       for f in reversed(traceback.extract_tb(exc.__traceback__)))  # innermost first
        loc = user_frame(frames)
        first = next((line for line in str(exc).splitlines() if line.strip()), "")
        return cls(type(exc).__name__, first.strip()[:300], loc.short if loc else None, loc.code() if loc else None)

    def explain(self) -> str:
        what = f"{self.kind}: {self.message}" if self.message else self.kind
        if self.where is None:
            return f"the model raised {what} inside torch (no line of your code on the way) when run on the " \
                   f"example inputs: fix the model or its inputs"
        code = f" (`{self.code}`)" if self.code else ""
        return f"the model raised {what} at {self.where}{code} when run on the example inputs: fix the model or " \
               f"its inputs"


def capture_export(model, inputs: tuple, params: str):
    from torch_mlir.extras.fx_decomp_util import get_decomposition_table

    # Checked before the export, not beside it: tracing runs the model's Python here, and a model that aborts
    # must be found out in the forked check first. A disposable job has no fork to protect (the job process is the
    # container, and a model that aborts ends it either way): there the model runs eagerly only when the export
    # fails, to tell a model that cannot run on its inputs from an export that cannot trace it, as up front.
    checked_after = in_disposable_job()
    if checked_after:
        check_input_types(model, inputs)
    else:
        check_inputs(model, inputs)
    t0 = time.perf_counter()
    # A model on meta is traced with its inputs on meta too: CPU inputs would put device transfers into the graph
    # (`.to(x.device)` from meta weights) that the real model does not have. The real inputs are still what runs.
    traced = tuple(x.to("meta") for x in inputs) if on_meta(model) else inputs
    try:
        program = torch.export.export(model, traced, strict=False)
    except Exception:
        if checked_after:
            check_inputs(model, inputs)  # BadInput when the model itself cannot run on them
        raise
    sites = _mutation_sites(program)  # before functionalization: the in-place ops as the model wrote them
    functionalized = _inplace_ops_written(program)
    program = program.run_decompositions(get_decomposition_table())
    gm = program.graph_module
    if traced is not inputs:
        _meta_devices_to_cpu(gm)
    state = {**program.state_dict, **program.constants}
    user_inputs = iter(inputs)
    arguments, values, to_inline, weights, constants = [], [], {}, {}, []
    mutations = _mutations(program, sites)
    mutated = {m["target"] for m in mutations}
    role_of = {"PARAMETER": "parameter", "BUFFER": "buffer", "CONSTANT_TENSOR": "constant", "USER_INPUT": "input"}
    for spec in program.graph_signature.input_specs:
        role = role_of.get(spec.kind.name)
        if role is None:
            raise BadInput(f"unsupported exported input kind {spec.kind.name} ({spec.arg.name})")
        value = next(user_inputs) if role == "input" else state[spec.target]
        if (spec.arg.name if role == "input" else spec.target) in mutated and role != "constant":
            role = "cache"  # state the graph updates in place (a KV cache): fed like an input, never inlined
        elif role != "input":
            weights[spec.target] = (role, value)
        if role == "constant" or (params == "inline" and role not in ("input", "cache")):
            to_inline[spec.arg.name] = value
            constants.append(constant_record(spec.target, role, value))
            continue
        arguments.append(_arg_info(spec.target or spec.arg.name, role, value))
        values.append(value)
    to_import = inline_placeholders(gm, to_inline) if to_inline else gm
    stage = Stage(name=StageName.FX, ok=True, module=gm, seconds=time.perf_counter() - t0)
    stage.text = _graph_text(gm, arguments, "torch.export ExportedProgram (run_decompositions: torch-mlir table)") \
        + "\n# graph signature\n" + "\n".join("# " + l for l in str(program.graph_signature).splitlines()) + "\n"
    stage.ops = fx_ops(gm)
    stage.meta = {"inlined": sorted(to_inline), "constants": constants, "mutations": mutations,
                  "inplace_rewritten": functionalized, "signature": [
        {"placeholder": s.arg.name, "kind": s.kind.name, "target": s.target} for s in program.graph_signature.input_specs]}
    return stage, FxCapture(graph_module=to_import, arguments=arguments, values=values, shown=gm, weights=weights)


def _mutation_sites(program) -> dict:
    """{placeholder name or buffer target: (in-place op, stack trace)} of the first in-place op on each graph input
    in the exported (not yet functionalized) program."""

    targets = {s.arg.name: (s.target if s.kind.name in ("BUFFER", "PARAMETER") else s.arg.name)
               for s in program.graph_signature.input_specs}
    sites: dict = {}
    _find_mutation_sites(program.graph_module, targets, sites)
    return sites


def _find_mutation_sites(gm: torch.fx.GraphModule, targets: dict, sites: dict) -> None:
    for node in gm.graph.nodes:
        if node.op != "call_function" or not node.args:
            continue
        if isinstance(node.args[0], torch.fx.Node) and node.args[0].name in targets and fx_node_mutates(node):
            sites.setdefault(targets[node.args[0].name], (node_op_name(node), node.meta.get("stack_trace")))
            continue
        # a region (`with torch.no_grad()` becomes wrap_with_set_grad_enabled(False, submod, *operands)): its
        # placeholders are the operands after the submodule, in order
        held = [i for i, a in enumerate(node.args) if isinstance(a, torch.fx.Node) and a.op == "get_attr"]
        region = getattr(gm, node.args[held[0]].target, None) if held else None
        if isinstance(region, torch.fx.GraphModule):
            operands = node.args[held[0] + 1:]
            inner = [n for n in region.graph.nodes if n.op == "placeholder"]
            _find_mutation_sites(region, {p.name: targets[o.name] for p, o in zip(inner, operands)
                                          if isinstance(o, torch.fx.Node) and o.name in targets}, sites)


def _inplace_ops_written(program) -> list:
    """The in-place ops of the exported program before functionalization, on the model's own intermediate tensors
    (those on graph inputs and buffers are its `mutations`): [{"op", "file", "line"}]. torch.export rewrites them
    out of place, so the fx stage shows none of them; the model still has them."""
    out = []
    for node in program.graph_module.graph.nodes:
        if node.op != "call_function" or not fx_node_mutates(node):
            continue
        if node.args and isinstance(node.args[0], torch.fx.Node) and node.args[0].op == "placeholder":
            continue  # an update of an input or buffer: reported with the mutations
        loc = user_frame(frames_from_stack_trace(node.meta.get("stack_trace")))
        out.append({"op": node_op_name(node), "file": loc.file if loc else None, "line": loc.line if loc else None})
    return out


_MUTATION_KINDS = {"USER_INPUT_MUTATION": "input", "BUFFER_MUTATION": "buffer", "PARAMETER_MUTATION": "parameter"}


def _mutations(program, sites: dict) -> list:
    """The inputs, buffers and parameters the graph updates in place, in the order torch.export returns their new
    values (they come first among the graph's outputs): [{"output", "kind", "target", "op", "file", "line"}]."""
    out = []
    for i, spec in enumerate(program.graph_signature.output_specs):
        if spec.kind.name in _MUTATION_KINDS:
            op, trace = sites.get(spec.target, (None, None))
            loc = user_frame(frames_from_stack_trace(trace))
            out.append({"output": i, "kind": _MUTATION_KINDS[spec.kind.name],
                        "target": spec.target, "op": op, "file": loc.file if loc else None,
                        "line": loc.line if loc else None})
    return out


def _meta_devices_to_cpu(gm: torch.fx.GraphModule) -> None:
    """Ops traced on meta that make tensors (arange, full, scalar_tensor, ...) name the meta device; the model
    runs on the CPU, and torch-mlir turns a meta device into a transfer it cannot lower. Name the CPU instead."""
    meta, cpu = torch.device("meta"), torch.device("cpu")

    def swap(x):
        return cpu if isinstance(x, torch.device) and x == meta else x

    for node in gm.graph.nodes:
        if node.op == "call_function":
            node.args, node.kwargs = torch.fx.node.map_aggregate((node.args, node.kwargs), swap)
    gm.recompile()


_VIEW_MUTATIONS = ("as_strided_", "transpose_", "t_", "squeeze_", "unsqueeze_", "swapdims_", "swapaxes_", "detach_")


def _outplace_view_mutations(gm: torch.fx.GraphModule) -> None:
    """Functionalization keeps ops that change a tensor's view in place (as_strided_, squeeze_, ... which
    decompositions can produce); turn each into its out-of-place view and let later users read the new view."""
    order = {n: i for i, n in enumerate(gm.graph.nodes)}
    for node in list(gm.graph.nodes):
        target = node.target
        op = target._schema.name.split("::")[-1] if isinstance(target, torch._ops.OpOverload) else None
        if op not in _VIEW_MUTATIONS:
            continue
        packet = getattr(torch.ops.aten, op[:-1])
        node.target = getattr(packet, target._overloadname)
        source = node.args[0]
        for user in list(source.users):
            if user is not node and order[user] > order[node]:
                user.replace_input_with(source, node)
    gm.graph.lint()
    gm.recompile()


def _dynamo_decompositions() -> dict:
    """torch-mlir's decomposition table, plus what torch.export's graph has decomposed already and make_fx would
    otherwise hand over whole:
    - batch norm: dynamo hands over `native_batch_norm`, whose eval-mode saved statistics are empty tensors that
      torch-mlir's lowering casts the running stats to (tensor<8xf32> -> tensor<0xf32>: every CNN failed);
    - the `.default` overloads of ops whose `.vec` form the table decomposes (upsample_bilinear2d): make_fx
      reaches `.default` before it consults the table, and torch-mlir cannot lower it to StableHLO."""
    from torch._decomp import decomposition_table, get_decompositions
    from torch_mlir.extras.fx_decomp_util import get_decomposition_table

    table = {**get_decomposition_table(), **get_decompositions([torch.ops.aten.native_batch_norm])}
    for op in list(table):
        if getattr(op, "_overloadname", None) == "vec":
            default = getattr(op.overloadpacket, "default", None)
            if default is not None and default not in table and default in decomposition_table:
                table[default] = decomposition_table[default]
    return table


def _lifted_name(node) -> str:
    """What the user calls a tensor dynamo lifted into a graph input: `G` for a global, else dynamo's source text."""
    source = getattr(node.meta.get("grapharg"), "source", None)
    name = getattr(source, "global_name", None) or getattr(source, "name", None)
    return name if isinstance(name, str) and name else node.name


def capture_dynamo(model, inputs: tuple, params: str, functionalize: bool = False):
    check_inputs(model, inputs)
    import torch._dynamo
    from torch.fx import traceback as fx_traceback
    from torch.fx.experimental.proxy_tensor import make_fx

    t0 = time.perf_counter()
    captured: dict = {}

    def backend(gm, example_inputs):
        captured["gm"], captured["inputs"] = gm, list(example_inputs)
        # what each input is in the user's code; dynamo drops this meta once the backend returns
        captured["sources"] = {n.name: _lifted_name(n) for n in gm.graph.nodes if n.op == "placeholder"}
        return gm.forward

    # Under no_grad dynamo hands over the graph as written, in-place calls included (with grad enabled
    # AOT autograd would reject them). No torch._dynamo.reset(): it would wipe the user's own torch.compile
    # caches. Each capture has its own backend, so dynamo compiles anew (guards include the backend); the
    # recompile limit is lifted for this call only, so bringing the same model up again is not refused.
    # One eager call first: dynamo traces the model as it runs from then on, and setup a model does on its first
    # call only can break the graph (transformers installs its output-capturing hooks under a threading lock,
    # which dynamo cannot trace: "Unsupported context manager"). Dynamo runs the model in this process anyway.
    with torch.no_grad():
        model(*[x.clone() for x in inputs])
    given = [x.clone() for x in inputs]  # the graph's inputs are matched to these by identity, never by position
    with torch.no_grad(), torch._dynamo.config.patch(recompile_limit=1 << 20, accumulated_recompile_limit=1 << 20):
        torch.compile(model, backend=backend, fullgraph=True, dynamic=False)(*given)
    if "gm" not in captured:
        raise CompilerFailure("dynamo ran the model without handing a graph to the capture backend")
    gm, example_inputs, sources = captured.pop("gm"), captured.pop("inputs"), captured.pop("sources")

    named = {}
    for name, p in model.named_parameters():
        named[id(p)] = (name, "parameter")
    for name, b in model.named_buffers():
        named[id(b)] = (name, "buffer")
    for prefix, module in model.named_modules():  # plain tensor attributes (`self.table = torch.randn(...)`)
        for attr, value in vars(module).items():
            if isinstance(value, torch.Tensor) and id(value) not in named:
                named[id(value)] = (f"{prefix}.{attr}" if prefix else attr, "constant")
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    # Dynamo orders a graph's inputs by first use, not by the forward's signature: `forward(a, b)` that reads b
    # first gets (b, a). Each input is found by what it is (the very tensor handed to the call).
    position = {id(x): i for i, x in enumerate(given)}
    roles = []
    for node, value in zip(placeholders, example_inputs):
        name, role = named.get(id(value), (None, "input"))
        if role == "input" and id(value) not in position:
            # Not an input, a parameter or an attribute: a tensor the forward reads from elsewhere (a global, a
            # closure, a list on the module). Dynamo lifts the very tensor, so its value is the one to embed, as
            # torch.export embeds the tensors it lifts.
            name, role = sources[node.name], "constant"
        elif role == "input":
            value, name = inputs[position[id(value)]], node.name
        roles.append((node.name, name, role, value))

    def run_graph(*args):
        return torch.fx.Interpreter(gm).run(*args)

    # functionalize=True is the fix for in-place ops: mutations become out-of-place ops before torch-mlir sees them.
    traced = torch.func.functionalize(run_graph, remove="mutations") if functionalize else run_graph
    # preserve_node_meta copies each dynamo node's stack_trace onto the aten nodes make_fx records; without it
    # every aten node loses its source line.
    with torch.no_grad(), fx_traceback.preserve_node_meta():
        aten_gm = make_fx(traced, decomposition_table=_dynamo_decompositions(), tracing_mode="fake")(
            *[v.detach() for *_, v in roles])
    if functionalize:
        _outplace_view_mutations(aten_gm)
    aten_placeholders = [n for n in aten_gm.graph.nodes if n.op == "placeholder"]
    arguments, values, to_inline, constants = [], [], {}, []
    weights = {name: (role, value) for _, name, role, value in roles if role != "input"}
    for ph, (_, name, role, value) in zip(aten_placeholders, roles):
        if role == "constant" or (params == "inline" and role != "input"):  # constants embedded, as export does
            to_inline[ph.name] = value
            constants.append(constant_record(name, role, value))
            continue
        arguments.append(_arg_info(name, role, value))
        values.append(value)
    for node in aten_gm.graph.nodes:  # tensors make_fx captured as attributes (e.g. the 0 in `y[:, 0] = 0`)
        value = getattr(aten_gm, node.target, None) if node.op == "get_attr" else None
        if isinstance(value, torch.Tensor):
            weights[node.target] = ("constant", value)
            constants.append(constant_record(node.target, "constant", value))
    to_import = inline_placeholders(aten_gm, to_inline) if to_inline else aten_gm
    stage = Stage(name=StageName.FX, ok=True, module=gm, seconds=time.perf_counter() - t0)
    stage.text = _graph_text(gm, [_arg_info(n, r, v) for _, n, r, v in roles],
                             "torch.compile (dynamo) graph, as handed to the backend") \
        + "\n# aten graph after make_fx (what torch-mlir imports)\n" + _graph_text(aten_gm, arguments, "make_fx")
    stage.ops = fx_ops(gm)
    stage.meta = {"inlined": sorted(to_inline), "constants": constants, "aten_ops": len(fx_ops(aten_gm)),
                  "functionalized": functionalize}
    return stage, FxCapture(graph_module=to_import, arguments=arguments, values=values, shown=gm,
                            notes={"aten_graph": aten_gm}, weights=weights)
