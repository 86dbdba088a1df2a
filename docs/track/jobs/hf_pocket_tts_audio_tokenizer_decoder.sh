#!/bin/sh
# hf/pocket_tts_audio_tokenizer_decoder: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/pocket_tts_audio_tokenizer_decoder --frontend export --out hf_pocket_tts_audio_tokenizer_decoder-export
