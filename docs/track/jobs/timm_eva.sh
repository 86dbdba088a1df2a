#!/bin/sh
# timm/eva: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/eva --frontend export --out timm_eva-export --run cpu --stage ttnn
