#!/bin/sh
# hf/granitemoeshared: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/granitemoeshared --frontend export --out hf_granitemoeshared-export
