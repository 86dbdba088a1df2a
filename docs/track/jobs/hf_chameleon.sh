#!/bin/sh
# hf/chameleon: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/chameleon --frontend export --out hf_chameleon-export
