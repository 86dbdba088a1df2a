#!/bin/sh
# hf/mgp-str: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/mgp-str --frontend export --out hf_mgp-str-export --run cpu --stage ttnn
