"""The room that compares: the only place a PCC, an allclose or an op's outcome is decided. Whole runs, op by op,
the stage comparison, drift, the semantic check, the golden's determinism check, ONNX conformance and the
tracker (through the runs' results) all judge through it.

- values.py: one value against its reference (PCC, max abs/rel error, allclose, why it fails).
- alignment.py: two stages' values of one op in whichever layout they differ by.
- outcomes.py: how each op of a simulator replay ended (compared, refused, aborted, internal, not reached).
- readings.py: which documented reading of an op the source's value matches (the semantic check).

Two comparers stay outside, on purpose: the reproducer scripts (run/repro.py, tt/sim/standalone.py) carry their
own PCC, because a script a user sends upstream imports nothing of ttbench.
"""
