#!/bin/sh
# hf/visual_bert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/visual_bert --frontend export --out hf_visual_bert-export --run cpu --stage ttnn
