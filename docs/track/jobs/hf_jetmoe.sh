#!/bin/sh
# hf/jetmoe: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/jetmoe --frontend export --out hf_jetmoe-export
