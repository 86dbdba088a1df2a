#!/bin/sh
# hf/tipsv2_text_model: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/tipsv2_text_model --frontend export --out hf_tipsv2_text_model-export --run cpu --stage ttnn
