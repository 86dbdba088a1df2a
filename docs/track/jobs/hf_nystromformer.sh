#!/bin/sh
# hf/nystromformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/nystromformer --frontend export --out hf_nystromformer-export --run cpu --stage ttnn
