#!/bin/sh
# hf/phi4_multimodal: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/phi4_multimodal --frontend export --out hf_phi4_multimodal-export --run cpu --stage ttnn
