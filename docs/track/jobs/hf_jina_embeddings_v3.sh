#!/bin/sh
# hf/jina_embeddings_v3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/jina_embeddings_v3 --frontend export --out hf_jina_embeddings_v3-export --run cpu --stage ttnn
