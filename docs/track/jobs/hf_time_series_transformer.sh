#!/bin/sh
# hf/time_series_transformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/time_series_transformer --frontend export --out hf_time_series_transformer-export
