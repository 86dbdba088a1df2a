#!/bin/sh
# hf/hunyuan_vl: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/hunyuan_vl --frontend export --out hf_hunyuan_vl-export
