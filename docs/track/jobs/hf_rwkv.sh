#!/bin/sh
# hf/rwkv: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: incorrect result
ttbench bringup hf/rwkv --frontend export --out hf_rwkv-export --compare stablehlo,ttir
