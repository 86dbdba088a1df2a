#!/bin/sh
# hf/gradium_phonon_tts: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/gradium_phonon_tts --frontend export --out hf_gradium_phonon_tts-export --run cpu --stage ttnn
