#!/bin/sh
# hf/omniasr_ctc: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/omniasr_ctc --frontend export --out hf_omniasr_ctc-export --run cpu --stage ttnn
