"""`python -m ttbench.tt.interp` prints docs/interpreter.md's table of op kinds the interpreter knows, from the registry."""
from . import known_ops


def markdown_table() -> str:
    """One row per handler: the op kinds it serves (TTIR and TTNN names together) and the semantics it follows."""
    by_reference: dict = {}
    for name, reference in known_ops().items():
        by_reference.setdefault(reference, []).append(name)
    rows = ["| op kinds | semantics followed |", "|---|---|"]
    rows += [f"| {', '.join(f'`{n}`' for n in names)} | {reference} |"
             for reference, names in sorted(by_reference.items(), key=lambda item: item[1][0])]
    return "\n".join(rows)


if __name__ == "__main__":
    print(markdown_table())
