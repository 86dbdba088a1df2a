#!/bin/sh
# timm/mobilenetv3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/mobilenetv3 --frontend export --out timm_mobilenetv3-export --run cpu --stage ttnn
