#!/bin/sh
# hf/fun_asr_nano: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/fun_asr_nano --frontend export --out hf_fun_asr_nano-export --run cpu --stage ttnn
