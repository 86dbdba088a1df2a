#!/bin/sh
# timm/cait: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/cait --frontend export --out timm_cait-export --run cpu --stage ttnn
