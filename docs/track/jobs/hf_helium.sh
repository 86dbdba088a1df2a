#!/bin/sh
# hf/helium: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/helium --frontend export --out hf_helium-export --run cpu --stage ttnn
