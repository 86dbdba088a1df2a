#!/bin/sh
# hf/pe_audio: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/pe_audio --frontend export --out hf_pe_audio-export --run cpu --stage ttnn
