#!/bin/sh
# hf/granite_docling: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/granite_docling --frontend export --out hf_granite_docling-export --run cpu --stage ttnn
