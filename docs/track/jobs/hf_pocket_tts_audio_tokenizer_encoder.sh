#!/bin/sh
# hf/pocket_tts_audio_tokenizer_encoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/pocket_tts_audio_tokenizer_encoder --frontend export --out hf_pocket_tts_audio_tokenizer_encoder-export
