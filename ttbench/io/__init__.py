"""Files: atomic writes, tensors as numpy bit for bit, example-input files, weights, and the export folder."""
