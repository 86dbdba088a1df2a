#!/bin/sh
# hf/openai_privacy_filter: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/openai_privacy_filter --frontend export --out hf_openai_privacy_filter-export
