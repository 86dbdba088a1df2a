#!/bin/sh
# hf/mllama: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mllama --frontend export --out hf_mllama-export --run cpu --stage ttnn
