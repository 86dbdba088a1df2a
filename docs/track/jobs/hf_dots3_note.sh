#!/bin/sh
# hf/dots3_note: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/dots3_note --frontend export --out hf_dots3_note-export
