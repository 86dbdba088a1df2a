#!/bin/sh
# timm/swiftformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/swiftformer --frontend export --out timm_swiftformer-export --run cpu --stage ttnn
