#!/bin/sh
# timm/mobilevit: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/mobilevit --frontend export --out timm_mobilevit-export --run cpu --stage ttnn
