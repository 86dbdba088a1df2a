#!/bin/sh
# hf/wavtokenizer_encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/wavtokenizer_encoder --frontend export --out hf_wavtokenizer_encoder-export
