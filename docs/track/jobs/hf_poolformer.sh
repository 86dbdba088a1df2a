#!/bin/sh
# hf/poolformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/poolformer --frontend export --out hf_poolformer-export --run cpu --stage ttnn
