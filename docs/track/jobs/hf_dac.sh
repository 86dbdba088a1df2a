#!/bin/sh
# hf/dac: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: interpreter refusal
ttbench bringup hf/dac --frontend export --out hf_dac-export --run cpu --stage ttnn
