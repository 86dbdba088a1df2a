#!/bin/sh
# hf/lxmert: its tracker jobs again, each writing every stage it reaches into the folder named after it (--out)
# export: passed
ttbench bringup hf/lxmert --frontend export --out hf_lxmert-export --run cpu --stage ttnn
