#!/bin/sh
# hf/pocket_tts: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/pocket_tts --frontend export --out hf_pocket_tts-export --run cpu --stage ttnn
