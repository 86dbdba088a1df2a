#!/bin/sh
# timm/nextvit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/nextvit --frontend export --out timm_nextvit-export --run cpu --stage ttnn
