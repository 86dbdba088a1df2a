#!/bin/sh
# hf/textnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/textnet --frontend export --out hf_textnet-export --run cpu --stage ttnn
