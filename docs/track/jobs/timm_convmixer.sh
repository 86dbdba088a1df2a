#!/bin/sh
# timm/convmixer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/convmixer --frontend export --out timm_convmixer-export --run cpu --stage ttnn
