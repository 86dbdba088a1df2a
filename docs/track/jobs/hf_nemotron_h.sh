#!/bin/sh
# hf/nemotron_h: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/nemotron_h --frontend export --out hf_nemotron_h-export
