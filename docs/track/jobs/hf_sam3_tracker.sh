#!/bin/sh
# hf/sam3_tracker: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/sam3_tracker --frontend export --out hf_sam3_tracker-export --run cpu --stage ttnn
