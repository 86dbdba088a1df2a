#!/bin/sh
# hf/voxtral_realtime: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/voxtral_realtime --frontend export --out hf_voxtral_realtime-export
