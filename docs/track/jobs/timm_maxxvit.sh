#!/bin/sh
# timm/maxxvit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/maxxvit --frontend export --out timm_maxxvit-export --run cpu --stage ttnn
