#!/bin/sh
# hf/sam_hq_vision_model: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/sam_hq_vision_model --frontend export --out hf_sam_hq_vision_model-export --run cpu --stage ttnn
