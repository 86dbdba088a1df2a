#!/bin/sh
# hf/doge: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/doge --frontend export --out hf_doge-export --run cpu --stage ttnn
