"""LLMs on the meta device: llama_8b and llama_70b prefill to TTNN (compile-only), and the 1B config side by side.

Each case runs in a fresh interpreter; wall seconds cover building the model and the bringup through TTNN
(params="args", the Tenstorrent compiler included), then the findings and an export with report.html. Peak RSS is
the whole process tree (the bringup, its lowering worker, the TT compile worker), sampled every 0.1 s, and the
kernel's own high-water marks (ru_maxrss of the process and of its largest child) as a floor.

1. llama_8b prefill (32 layers, width 4096, vocabulary 128256, 128 tokens)   target: < 2 min, < 4 GB
2. llama_70b prefill (80 layers, width 8192)                                   target: < 6 min, < 8 GB
   llama_8b:decode, one step with a 256-slot static KV cache, and op by op of a tiny decode step on the CPU
3. Llama-3.2-1B's shapes (16 layers, width 2048): random weights (today's path) vs meta, same work, ratios;
   and torch-mlir's own export_and_import of the materialised 1B model to the torch dialect, for the record.

    python benchmarks/bench_llm.py [CASES]     (default: all: 8b,70b,decode,1b)
"""
import json
import os
import subprocess
import sys
import textwrap

sys.path.insert(0, os.path.dirname(__file__))
from _measure import median  # noqa: E402

REPEAT = int(os.environ.get("BENCH_REPEAT", "1"))

_PRELUDE = textwrap.dedent("""
    import json, os, resource, sys, tempfile, threading, time
    import psutil
    import torch
    import ttbench as tb
    from ttbench import models

    peak = [0]
    def sample():
        me = psutil.Process()
        while True:
            try:
                procs = [me] + me.children(recursive=True)
                peak[0] = max(peak[0], sum(p.memory_info().rss for p in procs if p.is_running()))
            except psutil.Error:
                pass
            time.sleep(0.1)
    threading.Thread(target=sample, daemon=True).start()

    def llama(weights, **shape):
        loader = models._loader("llama_8b")
        return loader.load(weights=weights, **shape)

    def bringup_and_report(model, inputs, name):
        t = time.perf_counter()
        b = tb.bringup(model, inputs, name=name)
        stages = time.perf_counter() - t
        assert b.ok, b.table()
        b.findings
        out = b.export(os.path.join(tempfile.mkdtemp(), name))
        return {"bringup_s": stages, "report_s": time.perf_counter() - t - stages,
                "report_mb": os.path.getsize(os.path.join(out, "report.html")) / 1e6,
                "ops": {n: len(s.ops) for n, s in b.stages.items()}}

    t0 = time.perf_counter()
""")

_EPILOGUE = textwrap.dedent("""
    result["wall_s"] = time.perf_counter() - t0
    time.sleep(0.3)
    result["peak_gb"] = max(peak[0] / 1e9, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6,
                            resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1e6)
    print("RESULT" + json.dumps(result))
""")

ONE_B = "hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, num_attention_heads=32, " \
        "num_key_value_heads=8, tie_word_embeddings=True"

TINY = "hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, " \
       "vocab_size=256"

CASES = {
    "8b": "m, x = models.load('llama_8b'); b0 = time.perf_counter() - t0\n"
          "result = {'build_s': b0, **bringup_and_report(m, x, 'llama_8b')}",
    "70b": "m, x = models.load('llama_70b'); b0 = time.perf_counter() - t0\n"
           "result = {'build_s': b0, **bringup_and_report(m, x, 'llama_70b')}",
    "8b-decode": "m, x = models.load('llama_8b:decode'); b0 = time.perf_counter() - t0\n"
                 "result = {'build_s': b0, **bringup_and_report(m, x, 'llama_8b_decode')}",
    "decode-op-by-op": "torch.manual_seed(0)\n"
                       f"m, x = models._loader('llama_8b').load(weights='random', variant='decode', {TINY})\n"
                       "b0 = time.perf_counter() - t0; b = tb.bringup(m, x, tt=False)\n"
                       "t = time.perf_counter(); rep = b.op_by_op(progress=False)\n"
                       "result = {'build_s': b0, 'op_by_op_s': time.perf_counter() - t, 'unique': len(rep.rows),"
                       " 'total': rep.total_ops, 'failed': len(rep.failed())}",
    "1b-random": f"m, x = llama('random', {ONE_B}); b0 = time.perf_counter() - t0\n"
                 "result = {'build_s': b0, **bringup_and_report(m.eval(), x, 'llama_1b')}",
    "1b-meta": f"m, x = llama('meta', {ONE_B}); b0 = time.perf_counter() - t0\n"
               "result = {'build_s': b0, **bringup_and_report(m.eval(), x, 'llama_1b')}",
    "1b-raw-torch-mlir": f"m, x = llama('random', {ONE_B}); b0 = time.perf_counter() - t0\n"
                         "from torch_mlir import fx\n"
                         "t = time.perf_counter()\n"
                         "try:\n    fx.export_and_import(m.eval(), *x); error = None\n"
                         "except Exception as exc:\n    error = f'{type(exc).__name__}: {exc}'[:200]\n"
                         "result = {'build_s': b0, 'import_s': time.perf_counter() - t, 'error': error}",
}


def measure(case: str) -> dict:
    code = _PRELUDE + CASES[case] + "\n" + _EPILOGUE
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONWARNINGS": "ignore"})
    for line in out.stdout.splitlines():
        if line.startswith("RESULT"):
            return json.loads(line[6:])
    raise RuntimeError(f"{case}: {out.stderr[-3000:]}")


def runs(case: str) -> dict:
    results = [measure(case) for _ in range(REPEAT)]
    keys = [k for k, v in results[0].items() if isinstance(v, (int, float))]
    med = {k: median([r[k] for r in results]) for k in keys}
    med["ops"], med["error"] = results[0].get("ops"), results[0].get("error")
    return med


def show(name: str, r: dict, target=None) -> None:
    parts = [f"wall {r['wall_s']:.1f} s (build {r['build_s']:.1f} s"]
    if "bringup_s" in r:
        parts[0] += f", stages to ttnn {r['bringup_s']:.1f} s, findings + export {r['report_s']:.1f} s)"
        parts.append(f"report.html {r['report_mb']:.2f} MB")
    else:
        parts[0] += f", export_and_import {r['import_s']:.1f} s" + (f": FAILED, {r['error']})" if r.get("error") else ")")
    parts.append(f"peak RSS {r['peak_gb']:.2f} GB")
    verdict = ""
    if target:
        seconds, gb = target
        verdict = f"  [target < {seconds / 60:g} min, < {gb} GB: " + \
            ("met]" if r["wall_s"] < seconds and r["peak_gb"] < gb else "MISSED]")
    print(f"{name}: " + ", ".join(parts) + verdict, flush=True)
    if r.get("ops"):
        print("   ops per stage: " + ", ".join(f"{k} {v}" for k, v in r["ops"].items()), flush=True)


def main() -> None:
    wanted = (sys.argv[1] if len(sys.argv) > 1 else "8b,70b,decode,1b").split(",")
    print(f"{REPEAT} run(s) per case (BENCH_REPEAT), medians; each case in a fresh interpreter", flush=True)
    if "8b" in wanted:
        show("llama_8b prefill -> ttnn (meta)", runs("8b"), (120, 4))
    if "70b" in wanted:
        show("llama_70b prefill -> ttnn (meta)", runs("70b"), (360, 8))
    if "decode" in wanted:
        show("llama_8b decode step (static KV cache, 256 slots) -> ttnn (meta)", runs("8b-decode"), (120, 4))
        r = runs("decode-op-by-op")
        print(f"llama decode step, tiny config (2 layers, width 64, random weights), op by op on the CPU: "
              f"{r['unique']:.0f} unique of {r['total']:.0f} ops, {r['failed']:.0f} failed, {r['op_by_op_s']:.1f} s",
              flush=True)
    if "1b" in wanted:
        random, meta = runs("1b-random"), runs("1b-meta")
        show("llama 1B shapes, random weights (today's path)", random)
        show("llama 1B shapes, meta", meta)
        print(f"1B meta vs random weights, same calls: wall x{meta['wall_s'] / random['wall_s']:.2f} (stages to ttnn "
              f"x{meta['bringup_s'] / random['bringup_s']:.2f}), peak RSS x{meta['peak_gb'] / random['peak_gb']:.2f}; "
              f"the random side also builds the weights, digests them for constant names and writes "
              f"weights.safetensors, which a meta model has none of", flush=True)
        show("llama 1B shapes, torch-mlir export_and_import alone (random weights, for the record)",
             runs("1b-raw-torch-mlir"))


if __name__ == "__main__":
    main()
