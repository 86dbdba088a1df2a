#!/bin/sh
# timm/vitamin: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/vitamin --frontend export --out timm_vitamin-export --run cpu --stage ttnn
