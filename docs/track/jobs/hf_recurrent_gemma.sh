#!/bin/sh
# hf/recurrent_gemma: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/recurrent_gemma --frontend export --out hf_recurrent_gemma-export --run cpu --stage ttnn
