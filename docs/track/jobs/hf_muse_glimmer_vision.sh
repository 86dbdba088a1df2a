#!/bin/sh
# hf/muse_glimmer_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/muse_glimmer_vision --frontend export --out hf_muse_glimmer_vision-export
