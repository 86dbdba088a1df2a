#!/bin/sh
# hf/yolos: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/yolos --frontend export --out hf_yolos-export --run cpu --stage ttnn
