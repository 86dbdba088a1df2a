#!/bin/sh
# hf/inkling2_loop_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/inkling2_loop_text --frontend export --out hf_inkling2_loop_text-export
