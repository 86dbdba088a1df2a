#!/bin/sh
# hf/t5gemma: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/t5gemma --frontend export --out hf_t5gemma-export --run cpu --stage ttnn
