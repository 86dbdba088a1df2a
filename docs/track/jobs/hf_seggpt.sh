#!/bin/sh
# hf/seggpt: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/seggpt --frontend export --out hf_seggpt-export
