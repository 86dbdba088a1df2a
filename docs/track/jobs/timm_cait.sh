#!/bin/sh
# timm/cait: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: ttbench error
ttbench bringup timm/cait --frontend export --out timm_cait-export
