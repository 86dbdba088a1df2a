#!/bin/sh
# hf/nllb-moe: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/nllb-moe --frontend export --out hf_nllb-moe-export --run cpu --stage ttnn
