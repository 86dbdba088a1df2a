#!/bin/sh
# hf/audio-spectrogram-transformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/audio-spectrogram-transformer --frontend export --out hf_audio-spectrogram-transformer-export --run cpu --stage ttnn
