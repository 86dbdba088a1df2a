#!/bin/sh
# hf/wavlm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/wavlm --frontend export --out hf_wavlm-export --run cpu --stage ttnn
