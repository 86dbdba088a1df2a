#!/bin/sh
# hf/vaultgemma: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/vaultgemma --frontend export --out hf_vaultgemma-export --run cpu --stage ttnn
