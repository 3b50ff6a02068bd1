#!/bin/bash
# Print the edu device's BAR0 as a guest reported it in a bench run's
# output (the MAP line of its traced mapping), for stock mmiotrace's
# filter_offset boot parameter.
# usage: edu-bar0.sh BENCH_OUTDIR
set -eu
sed -n 's/^RESULT edu_bar0 //p' "$1/output.log" | head -n 1 | grep . ||
	{ echo "edu-bar0: no edu_bar0 line in $1/output.log" >&2; exit 1; }
