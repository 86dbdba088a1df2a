#!/bin/sh
# hf/fsmt: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/fsmt --frontend export --out hf_fsmt-export
