#!/bin/sh
# timm/tresnet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/tresnet --frontend export --out timm_tresnet-export --run cpu --stage ttnn
