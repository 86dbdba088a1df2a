#!/bin/sh
# hf/granite_docling_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/granite_docling_vision --frontend export --out hf_granite_docling_vision-export --run cpu --stage ttnn
