#!/bin/sh
# timm/coat: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/coat --frontend export --out timm_coat-export --run cpu --stage ttnn
