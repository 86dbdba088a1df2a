#!/bin/sh
# hf/vit_msn: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/vit_msn --frontend export --out hf_vit_msn-export --run cpu --stage ttnn
