#!/bin/sh
# hf/markuplm: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/markuplm --frontend export --out hf_markuplm-export --run cpu --stage ttnn
