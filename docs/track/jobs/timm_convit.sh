#!/bin/sh
# timm/convit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/convit --frontend export --out timm_convit-export --run cpu --stage ttnn
