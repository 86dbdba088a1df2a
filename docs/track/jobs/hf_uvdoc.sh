#!/bin/sh
# hf/uvdoc: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/uvdoc --frontend export --out hf_uvdoc-export
