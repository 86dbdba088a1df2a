#!/bin/sh
# timm/efficientvit_mit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/efficientvit_mit --frontend export --out timm_efficientvit_mit-export --run cpu --stage ttnn
