#!/bin/sh
# hf/udop: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/udop --frontend export --out hf_udop-export
