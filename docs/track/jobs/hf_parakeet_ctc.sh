#!/bin/sh
# hf/parakeet_ctc: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/parakeet_ctc --frontend export --out hf_parakeet_ctc-export --run cpu --stage ttnn
