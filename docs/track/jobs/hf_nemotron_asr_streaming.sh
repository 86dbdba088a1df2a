#!/bin/sh
# hf/nemotron_asr_streaming: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/nemotron_asr_streaming --frontend export --out hf_nemotron_asr_streaming-export --run cpu --stage ttnn
