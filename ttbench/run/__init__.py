"""Running stages on PJRT devices against the golden: whole graph (`run_stage`) and op by op (`op_by_op`).

Everything that touches a device or lowers an op happens in a worker process (worker.py), so a native crash or
hang is a result, never a dead kernel."""
from .devices import Device, devices
from .op_by_op import op_by_op
from .results import OpByOpReport, OpRow, RunResult
from .whole import run_stage

__all__ = ["devices", "Device", "run_stage", "op_by_op", "RunResult", "OpByOpReport", "OpRow"]
