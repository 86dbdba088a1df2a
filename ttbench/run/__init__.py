"""Running stages on PJRT devices against the golden: whole graph (`whole.run_stage`) and op by op
(`op_by_op.op_by_op`; import both from their modules: the function and its module share a name).
Everything that touches a device or lowers an op happens in a worker process (worker.py), so a native crash or
hang is a result, never a dead kernel."""
from .devices import Device, devices
from ..records.results import OpByOpReport, OpRow, RunResult

__all__ = ["devices", "Device", "RunResult", "OpByOpReport", "OpRow"]
