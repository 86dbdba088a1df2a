#!/bin/sh
# hf/ernie4_5_vl_moe: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/ernie4_5_vl_moe --frontend export --out hf_ernie4_5_vl_moe-export
