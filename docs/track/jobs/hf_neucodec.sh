#!/bin/sh
# hf/neucodec: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/neucodec --frontend export --out hf_neucodec-export
