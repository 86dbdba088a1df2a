#!/bin/sh
# timm/twins: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/twins --frontend export --out timm_twins-export --run cpu --stage ttnn
