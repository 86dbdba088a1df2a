#!/bin/sh
# timm/nasnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/nasnet --frontend export --out timm_nasnet-export --run cpu --stage ttnn
