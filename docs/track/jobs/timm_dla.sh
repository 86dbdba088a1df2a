#!/bin/sh
# timm/dla: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: incorrect result
ttbench bringup timm/dla --frontend export --out timm_dla-export --compare ttir,ttnn
