#!/bin/sh
# timm/mambaout: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/mambaout --frontend export --out timm_mambaout-export --run cpu --stage ttnn
