#!/bin/sh
# hf/dinat: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/dinat --frontend export --out hf_dinat-export
