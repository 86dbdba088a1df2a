#!/bin/sh
# hf/moonshine: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/moonshine --frontend export --out hf_moonshine-export --run cpu --stage ttnn
