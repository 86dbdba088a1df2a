#!/bin/sh
# hf/electra: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/electra --frontend export --out hf_electra-export --run cpu --stage ttnn
