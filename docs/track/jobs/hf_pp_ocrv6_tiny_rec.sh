#!/bin/sh
# hf/pp_ocrv6_tiny_rec: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/pp_ocrv6_tiny_rec --frontend export --out hf_pp_ocrv6_tiny_rec-export --run cpu --stage ttnn
