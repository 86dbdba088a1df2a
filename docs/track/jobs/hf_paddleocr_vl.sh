#!/bin/sh
# hf/paddleocr_vl: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/paddleocr_vl --frontend export --out hf_paddleocr_vl-export
