#!/bin/sh
# hf/cosmos3_edge_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/cosmos3_edge_vision --frontend export --out hf_cosmos3_edge_vision-export
