#!/bin/sh
# hf/pp_ocrv6_small_det: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/pp_ocrv6_small_det --frontend export --out hf_pp_ocrv6_small_det-export
