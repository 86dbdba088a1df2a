#!/bin/sh
# hf/ultrabert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/ultrabert --frontend export --out hf_ultrabert-export --run cpu --stage ttnn
