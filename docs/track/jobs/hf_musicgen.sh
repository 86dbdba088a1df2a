#!/bin/sh
# hf/musicgen: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/musicgen --frontend export --out hf_musicgen-export
