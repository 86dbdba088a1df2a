#!/bin/sh
# hf/gptj: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/gptj --frontend export --out hf_gptj-export --run cpu --stage ttnn
