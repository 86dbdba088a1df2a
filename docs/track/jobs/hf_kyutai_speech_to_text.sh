#!/bin/sh
# hf/kyutai_speech_to_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/kyutai_speech_to_text --frontend export --out hf_kyutai_speech_to_text-export
