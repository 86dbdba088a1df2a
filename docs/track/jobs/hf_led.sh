#!/bin/sh
# hf/led: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/led --frontend export --out hf_led-export
