#!/bin/sh
# hf/diffusion_gemma: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/diffusion_gemma --frontend export --out hf_diffusion_gemma-export
