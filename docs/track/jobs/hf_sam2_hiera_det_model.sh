#!/bin/sh
# hf/sam2_hiera_det_model: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: ttbench error
ttbench bringup hf/sam2_hiera_det_model --frontend export --out hf_sam2_hiera_det_model-export
