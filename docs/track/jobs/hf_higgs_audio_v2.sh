#!/bin/sh
# hf/higgs_audio_v2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/higgs_audio_v2 --frontend export --out hf_higgs_audio_v2-export
