#!/bin/sh
# hf/vibevoice_acoustic_tokenizer_encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/vibevoice_acoustic_tokenizer_encoder --frontend export --out hf_vibevoice_acoustic_tokenizer_encoder-export
