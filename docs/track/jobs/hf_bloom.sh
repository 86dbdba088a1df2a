#!/bin/sh
# hf/bloom: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/bloom --frontend export --out hf_bloom-export --run cpu --stage ttnn
