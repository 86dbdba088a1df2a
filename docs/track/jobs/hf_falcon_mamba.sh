#!/bin/sh
# hf/falcon_mamba: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/falcon_mamba --frontend export --out hf_falcon_mamba-export --run cpu --stage ttnn
