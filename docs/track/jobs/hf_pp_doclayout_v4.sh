#!/bin/sh
# hf/pp_doclayout_v4: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/pp_doclayout_v4 --frontend export --out hf_pp_doclayout_v4-export
