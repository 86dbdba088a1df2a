#!/bin/sh
# hf/hunyuan_vl_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/hunyuan_vl_text --frontend export --out hf_hunyuan_vl_text-export --run cpu --stage ttnn
