#!/bin/sh
# hf/cohere_compass_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/cohere_compass_vision --frontend export --out hf_cohere_compass_vision-export
