#!/bin/sh
# timm/volo: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/volo --frontend export --out timm_volo-export --run cpu --stage ttnn
