#!/bin/sh
# timm/inception_v4: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/inception_v4 --frontend export --out timm_inception_v4-export --run cpu --stage ttnn
