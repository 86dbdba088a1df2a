#!/bin/sh
# hf/metaclip_2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/metaclip_2 --frontend export --out hf_metaclip_2-export --run cpu --stage ttnn
