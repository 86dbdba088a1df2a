#!/bin/sh
# hf/ultravbert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/ultravbert --frontend export --out hf_ultravbert-export --run cpu --stage ttnn
