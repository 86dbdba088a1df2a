#!/bin/sh
# hf/embedding_gemma2_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/embedding_gemma2_text --frontend export --out hf_embedding_gemma2_text-export --run cpu --stage ttnn
