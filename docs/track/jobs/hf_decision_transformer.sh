#!/bin/sh
# hf/decision_transformer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/decision_transformer --frontend export --out hf_decision_transformer-export
