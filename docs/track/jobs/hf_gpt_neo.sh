#!/bin/sh
# hf/gpt_neo: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/gpt_neo --frontend export --out hf_gpt_neo-export --run cpu --stage ttnn
