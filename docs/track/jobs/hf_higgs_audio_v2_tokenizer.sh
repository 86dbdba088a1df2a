#!/bin/sh
# hf/higgs_audio_v2_tokenizer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/higgs_audio_v2_tokenizer --frontend export --out hf_higgs_audio_v2_tokenizer-export
