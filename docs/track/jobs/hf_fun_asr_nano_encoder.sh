#!/bin/sh
# hf/fun_asr_nano_encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/fun_asr_nano_encoder --frontend export --out hf_fun_asr_nano_encoder-export
