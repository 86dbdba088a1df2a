#!/bin/sh
# hf/persimmon: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/persimmon --frontend export --out hf_persimmon-export --run cpu --stage ttnn
