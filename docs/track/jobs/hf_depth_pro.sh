#!/bin/sh
# hf/depth_pro: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/depth_pro --frontend export --out hf_depth_pro-export
