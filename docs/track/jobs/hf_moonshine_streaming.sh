#!/bin/sh
# hf/moonshine_streaming: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/moonshine_streaming --frontend export --out hf_moonshine_streaming-export --run cpu --stage ttnn
