#!/bin/sh
# hf/musicgen_melody: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/musicgen_melody --frontend export --out hf_musicgen_melody-export
