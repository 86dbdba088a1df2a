#!/bin/sh
# hf/edgetam_vision_model: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/edgetam_vision_model --frontend export --out hf_edgetam_vision_model-export
