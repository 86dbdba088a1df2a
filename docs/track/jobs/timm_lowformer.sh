#!/bin/sh
# timm/lowformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/lowformer --frontend export --out timm_lowformer-export --run cpu --stage ttnn
