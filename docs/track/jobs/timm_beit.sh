#!/bin/sh
# timm/beit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/beit --frontend export --out timm_beit-export --run cpu --stage ttnn
