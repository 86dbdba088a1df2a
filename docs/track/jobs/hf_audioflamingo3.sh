#!/bin/sh
# hf/audioflamingo3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/audioflamingo3 --frontend export --out hf_audioflamingo3-export --run cpu --stage ttnn
