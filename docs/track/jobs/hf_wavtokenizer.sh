#!/bin/sh
# hf/wavtokenizer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/wavtokenizer --frontend export --out hf_wavtokenizer-export
