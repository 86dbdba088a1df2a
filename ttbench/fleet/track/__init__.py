"""`ttbench track`: the model tracker. Every transformers architecture of the offline zoo (hf_zoo.py) through the
sweep's jobs (export for all, the ONNX exporter on a sample; TT compile-only; the StableHLO run on the CPU and the
TTIR/TTNN programs in ttbench's interpreter), recorded in the results database as a "track" run; failures triaged
against the bare route and grouped, one reproduction per group (triage.py); a status page (status.md, .html,
.json) with the furthest stage per frontend, PCC per stage, the groups, history against the previous track run,
and the projection of the whole tracker's time on N nodes from the measured per-job times.

    tracker.py  planning, running, projection      triage.py  ours / upstream, groups, reproductions
    page.py     the status page                    scripts.py the standalone upstream-only scripts
"""
from .tracker import ONNX_SAMPLE, TrackResult, plan, track, update_known

__all__ = ["ONNX_SAMPLE", "TrackResult", "plan", "track", "update_known"]
