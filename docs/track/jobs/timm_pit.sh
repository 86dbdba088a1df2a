#!/bin/sh
# timm/pit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/pit --frontend export --out timm_pit-export --run cpu --stage ttnn
