#!/bin/sh
# hf/swiftformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/swiftformer --frontend export --out hf_swiftformer-export --run cpu --stage ttnn
