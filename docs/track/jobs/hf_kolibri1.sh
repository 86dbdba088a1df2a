#!/bin/sh
# hf/kolibri1: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/kolibri1 --frontend export --out hf_kolibri1-export
