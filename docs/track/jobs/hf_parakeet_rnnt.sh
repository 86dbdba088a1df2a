#!/bin/sh
# hf/parakeet_rnnt: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/parakeet_rnnt --frontend export --out hf_parakeet_rnnt-export --run cpu --stage ttnn
