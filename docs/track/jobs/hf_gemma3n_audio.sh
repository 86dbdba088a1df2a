#!/bin/sh
# hf/gemma3n_audio: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/gemma3n_audio --frontend export --out hf_gemma3n_audio-export
