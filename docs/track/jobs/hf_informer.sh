#!/bin/sh
# hf/informer: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: frontend failure
ttbench bringup hf/informer --frontend export --out hf_informer-export
