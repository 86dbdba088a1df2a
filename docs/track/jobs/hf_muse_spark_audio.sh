#!/bin/sh
# hf/muse_spark_audio: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/muse_spark_audio --frontend export --out hf_muse_spark_audio-export
