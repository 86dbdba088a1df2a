#!/bin/sh
# hf/vibevoice_acoustic_tokenizer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: torch-mlir failure
ttbench bringup hf/vibevoice_acoustic_tokenizer --frontend export --out hf_vibevoice_acoustic_tokenizer-export --run cpu --stage ttnn
