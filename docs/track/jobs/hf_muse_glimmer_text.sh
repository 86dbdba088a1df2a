#!/bin/sh
# hf/muse_glimmer_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/muse_glimmer_text --frontend export --out hf_muse_glimmer_text-export --run cpu --stage ttnn
