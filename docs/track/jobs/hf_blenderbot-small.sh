#!/bin/sh
# hf/blenderbot-small: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/blenderbot-small --frontend export --out hf_blenderbot-small-export --run cpu --stage ttnn
