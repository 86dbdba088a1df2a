#!/bin/sh
# timm/sknet: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/sknet --frontend export --out timm_sknet-export --run cpu --stage ttnn
