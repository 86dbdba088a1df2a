#!/bin/sh
# hf/codegen: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/codegen --frontend export --out hf_codegen-export --run cpu --stage ttnn
