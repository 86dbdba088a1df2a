#!/bin/sh
# hf/llava_next_video: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/llava_next_video --frontend export --out hf_llava_next_video-export --run cpu --stage ttnn
