#!/bin/sh
# hf/hunyuan_v1_dense: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/hunyuan_v1_dense --frontend export --out hf_hunyuan_v1_dense-export --run cpu --stage ttnn
