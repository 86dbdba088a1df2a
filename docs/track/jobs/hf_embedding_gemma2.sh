#!/bin/sh
# hf/embedding_gemma2: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/embedding_gemma2 --frontend export --out hf_embedding_gemma2-export --run cpu --stage ttnn
