#!/bin/sh
# hf/sam: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/sam --frontend export --out hf_sam-export --run cpu --stage ttnn
