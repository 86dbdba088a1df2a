#!/bin/sh
# hf/nemotron3_5_transcribe_word_timestamp: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/nemotron3_5_transcribe_word_timestamp --frontend export --out hf_nemotron3_5_transcribe_word_timestamp-export
