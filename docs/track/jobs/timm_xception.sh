#!/bin/sh
# timm/xception: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/xception --frontend export --out timm_xception-export --run cpu --stage ttnn
