#!/bin/sh
# timm/sequencer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup timm/sequencer --frontend export --out timm_sequencer-export --run cpu --stage ttnn
