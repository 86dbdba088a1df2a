#!/bin/sh
# timm/res2net: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/res2net --frontend export --out timm_res2net-export --run cpu --stage ttnn
