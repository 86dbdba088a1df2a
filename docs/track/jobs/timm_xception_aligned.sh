#!/bin/sh
# timm/xception_aligned: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/xception_aligned --frontend export --out timm_xception_aligned-export --run cpu --stage ttnn
