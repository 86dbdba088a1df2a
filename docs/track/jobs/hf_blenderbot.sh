#!/bin/sh
# hf/blenderbot: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/blenderbot --frontend export --out hf_blenderbot-export --run cpu --stage ttnn
