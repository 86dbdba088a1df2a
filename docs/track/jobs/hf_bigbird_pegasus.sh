#!/bin/sh
# hf/bigbird_pegasus: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/bigbird_pegasus --frontend export --out hf_bigbird_pegasus-export --run cpu --stage ttnn
