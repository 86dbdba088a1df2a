#!/bin/sh
# hf/lightglue: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/lightglue --frontend export --out hf_lightglue-export
