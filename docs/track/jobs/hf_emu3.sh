#!/bin/sh
# hf/emu3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/emu3 --frontend export --out hf_emu3-export
