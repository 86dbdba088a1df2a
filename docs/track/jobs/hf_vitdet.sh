#!/bin/sh
# hf/vitdet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/vitdet --frontend export --out hf_vitdet-export --run cpu --stage ttnn
