#!/bin/sh
# hf/m2m_100: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/m2m_100 --frontend export --out hf_m2m_100-export --run cpu --stage ttnn
