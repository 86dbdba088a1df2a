#!/bin/sh
# timm/tnt: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/tnt --frontend export --out timm_tnt-export --run cpu --stage ttnn
