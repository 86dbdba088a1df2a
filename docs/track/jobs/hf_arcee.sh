#!/bin/sh
# hf/arcee: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/arcee --frontend export --out hf_arcee-export --run cpu --stage ttnn
