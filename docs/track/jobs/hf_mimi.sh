#!/bin/sh
# hf/mimi: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/mimi --frontend export --out hf_mimi-export
