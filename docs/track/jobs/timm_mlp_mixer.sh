#!/bin/sh
# timm/mlp_mixer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/mlp_mixer --frontend export --out timm_mlp_mixer-export --run cpu --stage ttnn
