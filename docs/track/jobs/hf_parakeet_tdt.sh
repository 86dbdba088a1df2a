#!/bin/sh
# hf/parakeet_tdt: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/parakeet_tdt --frontend export --out hf_parakeet_tdt-export --run cpu --stage ttnn
