#!/bin/sh
# hf/bert-generation: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/bert-generation --frontend export --out hf_bert-generation-export --run cpu --stage ttnn
