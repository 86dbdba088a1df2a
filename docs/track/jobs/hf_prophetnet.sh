#!/bin/sh
# hf/prophetnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/prophetnet --frontend export --out hf_prophetnet-export --run cpu --stage ttnn
