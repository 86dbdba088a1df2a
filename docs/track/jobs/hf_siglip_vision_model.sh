#!/bin/sh
# hf/siglip_vision_model: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/siglip_vision_model --frontend export --out hf_siglip_vision_model-export --run cpu --stage ttnn
