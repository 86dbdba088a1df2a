#!/bin/sh
# hf/voxtral_realtime_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/voxtral_realtime_text --frontend export --out hf_voxtral_realtime_text-export
