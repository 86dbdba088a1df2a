#!/bin/sh
# timm/senet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/senet --frontend export --out timm_senet-export --run cpu --stage ttnn
