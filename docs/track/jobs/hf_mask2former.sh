#!/bin/sh
# hf/mask2former: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mask2former --frontend export --out hf_mask2former-export --run cpu --stage ttnn
