#!/bin/sh
# hf/groupvit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/groupvit --frontend export --out hf_groupvit-export --run cpu --stage ttnn
