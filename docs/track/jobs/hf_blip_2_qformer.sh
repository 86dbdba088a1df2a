#!/bin/sh
# hf/blip_2_qformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/blip_2_qformer --frontend export --out hf_blip_2_qformer-export
