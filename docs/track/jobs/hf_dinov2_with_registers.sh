#!/bin/sh
# hf/dinov2_with_registers: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/dinov2_with_registers --frontend export --out hf_dinov2_with_registers-export --run cpu --stage ttnn
