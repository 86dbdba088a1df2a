#!/bin/sh
# hf/bridgetower: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/bridgetower --frontend export --out hf_bridgetower-export --run cpu --stage ttnn
