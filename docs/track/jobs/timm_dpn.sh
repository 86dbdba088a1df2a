#!/bin/sh
# timm/dpn: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/dpn --frontend export --out timm_dpn-export --run cpu --stage ttnn
