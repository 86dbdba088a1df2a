#!/bin/sh
# hf/sam_hq: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: interpreter refusal
ttbench bringup hf/sam_hq --frontend export --out hf_sam_hq-export --run cpu --stage ttnn
