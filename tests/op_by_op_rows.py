"""Op-by-op rows of the zoo as recorded: what tests/test_op_by_op.py::test_op_by_op_rows_are_as_recorded holds the
flow to when it gets faster (same units, same verdicts, same PCCs).

    python tests/op_by_op_rows.py          record tests/golden/op_by_op/*.json with the code on the path
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.join(HERE, "golden", "op_by_op")
# (model, frontend): every zoo model small enough to bring up in a test, and two through ONNX
CASES = [(m, "export") for m in ("mlp", "bert_tiny", "resnet18", "mobilenet_v2", "vit_tiny", "gpt2_small",
                                 "segformer_b0", "swinv2_tiny", "unet")] + [("mobilenet_v2", "onnx"),
                                                                            ("bert_tiny", "onnx")]


def rows_of(model: str, frontend: str) -> list:
    """Each row of `model`'s isolated op by op on the CPU, as what a user reads: op, occurrences, inputs, nodes,
    lines, how far it got, its verdict and PCC (6 decimals), its error's first 120 characters."""
    import ttbench as tb

    m, x = tb.models.load(model)
    b = tb.bringup(m, x, frontend=frontend, tt=False, name=model)
    report = b.op_by_op(progress=False)
    return [{"op": r.op, "count": r.count, "inputs": r.inputs, "nodes": r.nodes, "locations": r.locations,
             "furthest_stage": r.furthest_stage, "ok": r.ok,
             "pcc": None if r.pcc is None else round(r.pcc, 6), "error": (r.error or "")[:120]}
            for r in report.rows]


def path_of(model: str, frontend: str) -> str:
    return os.path.join(FOLDER, f"{model}-{frontend}.json")


if __name__ == "__main__":
    os.makedirs(FOLDER, exist_ok=True)
    for model, frontend in CASES:
        rows = rows_of(model, frontend)
        with open(path_of(model, frontend), "w") as f:
            json.dump(rows, f, indent=0)
            f.write("\n")
        print(f"{model} ({frontend}): {len(rows)} rows, {sum(not r['ok'] for r in rows)} failing", flush=True)
    sys.exit(0)
