#!/bin/sh
# hf/pegasus_x: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/pegasus_x --frontend export --out hf_pegasus_x-export
