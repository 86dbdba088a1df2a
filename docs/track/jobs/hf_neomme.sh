#!/bin/sh
# hf/neomme: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/neomme --frontend export --out hf_neomme-export --run cpu --stage ttnn
