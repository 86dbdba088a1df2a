#!/bin/sh
# timm/inception_next: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/inception_next --frontend export --out timm_inception_next-export --run cpu --stage ttnn
