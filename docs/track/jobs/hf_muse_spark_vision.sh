#!/bin/sh
# hf/muse_spark_vision: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/muse_spark_vision --frontend export --out hf_muse_spark_vision-export
