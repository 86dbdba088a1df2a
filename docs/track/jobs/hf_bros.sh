#!/bin/sh
# hf/bros: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/bros --frontend export --out hf_bros-export --run cpu --stage ttnn
