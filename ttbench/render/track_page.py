"""The model tracker's status page (fleet/track): counts, the projection, history, failure groups with their
reproductions, and one row per architecture. Everything shown is escaped: errors and names are untrusted text."""
from __future__ import annotations

import html

from ..core import human_seconds
from .tables import html_table

_STYLE = ("<style>body{font:13px sans-serif;margin:1em}table{border-collapse:collapse}td,th{border:1px solid #999;"
          "padding:2px 6px;vertical-align:top}pre{background:#f6f8fa;padding:6px}</style>")


def html_page(result, architectures: tuple, counts: dict) -> str:
    """The page; `architectures` is (header, rows of plain-text cells), escaped here like everything else."""
    esc = html.escape
    versions = ", ".join(f"{k} {v}" for k, v in result.versions.items() if v)
    groups = html_table(
        ("#", "verdict", "stage", "op", "jobs", "message", "reproduction", "how it was decided"),
        [[str(i + 1), g.verdict, g.stage, g.op or "-", f"{len(g.jobs)}: {', '.join(g.jobs[:6])}"
          + (" ..." if len(g.jobs) > 6 else ""), g.example[:300],
          (f"repros/{g.repro} " if g.repro else "") + {True: "(reproduces)", False: "(does not reproduce)",
                                                        None: ""}[g.reproduces] + f" {g.repro_note}", g.why]
         for i, g in enumerate(result.groups)], cls="ttbench-track-groups", scroll=False)
    archs = html_table(*architectures, cls="ttbench-track", scroll=False)
    projection = html_table(("nodes", "wall time"), [[str(n), human_seconds(s)] for n, s in result.projection()],
                            scroll=False)
    return ("<!doctype html><meta charset='utf-8'><title>ttbench model tracker</title>" + _STYLE
            + "<h1>Model tracker</h1>"
            + f"<p>{esc(versions)}</p><p>{counts['jobs']} jobs "
            + (f"in {human_seconds(result.seconds)}" if result.seconds is not None else
               f"of track run {result.run_id}, triaged again (wall time not recorded)") + "; furthest stage: "
            + esc("; ".join(f"{k} {v}" for k, v in counts["furthest"].items())) + "; failures: "
            + esc(", ".join(f"{v} {k}" for k, v in counts["verdicts"].items()) or "none") + "; statuses: "
            + esc(", ".join(f"{v} {k}" for k, v in counts.get("statuses", {}).items())) + "</p><p>PCC measured for "
            + esc("; ".join(f"{stage.upper()} {got} of {reached} jobs that reach it"
                            for stage, (got, reached) in counts.get("pcc_measured", {}).items())) + "</p>"
            + f"<h2>Projection</h2><p>The whole tracker ({result.whole or len(result.rows)} jobs) at this run's mean "
            f"time per job, over N nodes of {result.jobs} job slots each.</p>" + projection
            + f"<h2>History</h2><pre>{esc(result.history or '-')}</pre>"
            + "<h2>Failure groups</h2>" + groups + "<h2>Architectures</h2>" + archs)
