#!/bin/sh
# hf/video_llama_3: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/video_llama_3 --frontend export --out hf_video_llama_3-export --run cpu --stage ttnn
