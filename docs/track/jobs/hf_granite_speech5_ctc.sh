#!/bin/sh
# hf/granite_speech5_ctc: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/granite_speech5_ctc --frontend export --out hf_granite_speech5_ctc-export
