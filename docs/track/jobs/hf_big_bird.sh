#!/bin/sh
# hf/big_bird: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/big_bird --frontend export --out hf_big_bird-export --run cpu --stage ttnn
