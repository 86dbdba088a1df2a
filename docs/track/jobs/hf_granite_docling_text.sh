#!/bin/sh
# hf/granite_docling_text: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/granite_docling_text --frontend export --out hf_granite_docling_text-export --run cpu --stage ttnn
