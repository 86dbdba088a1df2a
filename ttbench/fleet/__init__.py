"""Many bringups: the zoo sweep, where its jobs run (local, Ray), ONNX conformance, the results database and history,
the op support table."""
