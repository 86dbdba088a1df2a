#!/bin/sh
# timm/fasternet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/fasternet --frontend export --out timm_fasternet-export --run cpu --stage ttnn
