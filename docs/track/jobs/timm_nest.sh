#!/bin/sh
# timm/nest: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/nest --frontend export --out timm_nest-export --run cpu --stage ttnn
