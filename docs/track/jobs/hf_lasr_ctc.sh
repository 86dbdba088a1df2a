#!/bin/sh
# hf/lasr_ctc: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/lasr_ctc --frontend export --out hf_lasr_ctc-export --run cpu --stage ttnn
