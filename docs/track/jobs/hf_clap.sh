#!/bin/sh
# hf/clap: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/clap --frontend export --out hf_clap-export
