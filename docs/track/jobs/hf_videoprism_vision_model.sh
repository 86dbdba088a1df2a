#!/bin/sh
# hf/videoprism_vision_model: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: incorrect result
ttbench bringup hf/videoprism_vision_model --frontend export --out hf_videoprism_vision_model-export --compare ttir,ttnn
