#!/bin/sh
# hf/squeezebert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/squeezebert --frontend export --out hf_squeezebert-export --run cpu --stage ttnn
