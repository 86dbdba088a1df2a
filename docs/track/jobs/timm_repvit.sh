#!/bin/sh
# timm/repvit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/repvit --frontend export --out timm_repvit-export --run cpu --stage ttnn
