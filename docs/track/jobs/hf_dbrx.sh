#!/bin/sh
# hf/dbrx: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/dbrx --frontend export --out hf_dbrx-export
