#!/bin/sh
# hf/openai-gpt: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/openai-gpt --frontend export --out hf_openai-gpt-export --run cpu --stage ttnn
