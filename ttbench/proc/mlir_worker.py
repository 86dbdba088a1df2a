"""Child-process entry for torch-mlir pass pipelines (proc/passes.py starts it; stages/mlir_stage.run_pipelines is the caller). The parent imports only
`run_job`, and only inside a child that is contained already (the op-by-op worker lowers in its own process).

    python mlir_worker.py        then one line on stdin: {"in": IN.mlirbc, "out": OUT.mlirbc,
                                                       "pipelines": [[PIPELINE, DESCRIPTION], ...]}

The job comes on stdin so that the worker can be started (Python, torch_mlir) while the parent still captures the
graph. Exit 0: OUT holds the lowered module (bytecode, locations kept). Exit 3: a pipeline failed; stdout's last
line is "failed: DESCRIPTION", the diagnostics are on stderr. A crash (a signal) leaves stdout's last "running:"
line to say which pipeline it was in. It imports only torch_mlir (and its job runs once: one worker, one job).
"""
import json
import re
import resource
import sys
import time


def _inject_fault(fault: str, description: str) -> None:
    """For testing the parent (TTBENCH_MLIR_WORKER_FAULT, sent with the job; read by a caller that lowers in its
    own process too): "hang:TEXT" makes the pipeline whose
    description holds TEXT never finish, as a pass stuck in a loop would; "memory:TEXT" lets it map only 64 MiB
    more, so a pass that needs more runs out of memory for real (std::bad_alloc), as on a too small machine."""
    kind, _, needle = fault.partition(":")
    if kind == "hang" and needle in description:
        while True:
            time.sleep(60)
    if kind == "memory" and needle in description:  # the pipeline may map only 64 MiB more than is mapped now
        with open("/proc/self/statm") as f:
            mapped = int(f.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (mapped + (64 << 20), resource.RLIM_INFINITY))


def main(argv) -> int:
    from parent_watch import watch_parent  # beside this script (see parent_watch.py)

    watch_parent()
    from torch_mlir import ir
    from torch_mlir._mlir_libs import _stablehlo
    from torch_mlir.dialects import torch as torch_d

    context = ir.Context()
    torch_d.register_dialect(context)
    _stablehlo.register_dialect(context)
    line = sys.stdin.readline()
    if not line.strip():
        return 0  # a spare worker that was never given a job
    job = json.loads(line)
    source, out = job["in"], job["out"]
    diagnostics = []  # (location, severity, message), printed once a pipeline fails (see print_diagnostics)
    context.attach_diagnostic_handler(lambda d: diagnostics.append((d.location, d.severity, d.message)) or True)
    with context:
        context.emit_error_diagnostics = True  # passes that emit errors without failing would otherwise assert
        failed, module = run_job(lambda: _parse(source), job["pipelines"], diagnostics, sys.stderr,
                                 job.get("fault") or "", steps=sys.stdout)
        if failed is not None:
            print(f"failed: {failed}", flush=True)
            return 3
        with open(out, "wb") as f:
            f.write(module.operation.get_asm(enable_debug_info=True, binary=True))
    return 0


def _parse(path: str):
    from torch_mlir import ir

    with open(path, "rb") as f:
        return ir.Module.parse(f.read())


def run_job(make_module, pipelines: list, diagnostics: list, err, fault: str = "", steps=None) -> tuple:
    """Runs [(pipeline, description), ...] on the module `make_module()` builds (in the current context, whose
    diagnostics land in `diagnostics`). -> (None, module) when all ran, or (the description of the pipeline that
    failed, None) after writing its diagnostics and a summary to `err`; `steps`, if given, gets a "running:" line
    before each pipeline (the parent's clue when a pass crashes or hangs). Also what a contained child that lowers
    in its own process (the op-by-op worker) runs, so both say a failure alike."""
    try:  # parsing verifies: IR an importer built without verifying (in-place ops) fails here
        module = make_module()
    except Exception as exc:
        print_diagnostics(None, diagnostics, err)
        print(f"{exc}", file=err, flush=True)
        return pipelines[0][1], None
    from torch_mlir.passmanager import PassManager

    for pipeline, description in pipelines:
        if steps is not None:
            print(f"running: {description}", file=steps, flush=True)
        _inject_fault(fault, description)
        diagnostics.clear()
        try:
            PassManager.parse(pipeline).run(module.operation)
        except Exception as exc:  # the summary follows the diagnostics
            print_diagnostics(module, diagnostics, err)
            print(f"{description} failed: {exc}", file=err, flush=True)
            return description, None
    return None, module


def print_diagnostics(module, diagnostics, err) -> None:
    """MLIR's diagnostics on stderr as its own handler prints them ("LOC: error: message"), except that an op
    without a location (a constant the canonicalizer hoisted and deduplicated) is placed at the first op that uses
    it and has one, so that the error still points at the model's node and source line."""
    from torch_mlir import ir

    for location, severity, message in diagnostics:
        kind = {ir.DiagnosticSeverity.ERROR: "error", ir.DiagnosticSeverity.WARNING: "warning"}.get(severity, "note")
        named = re.search(r"operation '([\w.]+)'", message)
        if kind == "error" and module is not None and location.typeid == ir.UnknownLoc.static_typeid and named:
            user = _located_user(module, named.group(1))
            if user is not None:
                location = user.location
                end = named.end()
                message = f"{message[:end]} (no location of its own: shown at its user '{user.name}'){message[end:]}"
        print(f"{location}: {kind}: {message}", file=err, flush=True)


def _located_user(module, op_name: str):
    """The first op (breadth-first over uses) with a known location that uses a result of an op named `op_name`
    that has none; None when there is no such op."""
    from torch_mlir import ir

    def ops(op):
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    yield inner
                    yield from ops(inner)

    unknown = ir.UnknownLoc.static_typeid
    for op in ops(module.operation):
        if op.name != op_name or op.location.typeid != unknown:
            continue
        frontier = [op]
        for _ in range(8):  # a few steps along the uses is enough; constants feed their users directly
            users = [use.owner for o in frontier for r in o.results for use in r.uses]
            located = next((u for u in users if u.location.typeid != unknown), None)
            if located is not None:
                return located
            frontier = users
    return None


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
