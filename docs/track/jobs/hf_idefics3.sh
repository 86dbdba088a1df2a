#!/bin/sh
# hf/idefics3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/idefics3 --frontend export --out hf_idefics3-export --run cpu --stage ttnn
