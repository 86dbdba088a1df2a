#!/bin/sh
# hf/fastspeech2_conformer_with_hifigan: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/fastspeech2_conformer_with_hifigan --frontend export --out hf_fastspeech2_conformer_with_hifigan-export
