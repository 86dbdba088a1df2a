#!/bin/sh
# hf/cosmos3_edge_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/cosmos3_edge_text --frontend export --out hf_cosmos3_edge_text-export
