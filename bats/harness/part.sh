#!/bin/bash
# Run one part of make check (a boot, the host tests...) and keep its TAP, wall time and verdict.
# usage: part.sh OUTDIR NAME COMMAND...
# COMMAND prints TAP lines; they go to OUTDIR/NAME.tap, the seconds it took
# to OUTDIR/NAME.wall, and OUTDIR/NAME.ok is the stamp of a part that ran
# to its end, passed or not (make runs a part again when its stamp is
# missing or older than what it tests). Failures are shown with their "#"
# lines. Exits 0 unless it cannot run at all: the summary (summary.sh)
# gives the verdict.
set -eu
outdir=$1 name=$2
shift 2
tap=$outdir/$name.tap
mkdir -p "$outdir"
rm -f "$outdir/$name.ok" "$tap" "$outdir/$name.wall"
start=$(date +%s)
status=0
"$@" > "$tap.new" || status=$?
if [ "$status" != 0 ] && ! grep -q '^not ok' "$tap.new"; then
	echo "not ok - $name: exited with status $status (output: $tap)" >> "$tap.new"
fi
if ! grep -q '^\(not \)\{0,1\}ok ' "$tap.new"; then
	echo "not ok - $name: reported no result (output: $tap)" >> "$tap.new"
fi
echo $(($(date +%s) - start)) > "$outdir/$name.wall"
mv "$tap.new" "$tap"
awk '/^not ok/ { show = 1; print; next } /^#/ { if (show) print; next } { show = 0 }' "$tap"
failed=$(grep -c '^not ok' "$tap" || true)
skipped=$(grep -c '^ok .*# skip' "$tap" || true)
passed=$(($(grep -c '^ok ' "$tap" || true) - skipped))
echo "check: $name: $passed passed, $failed failed$([ "$skipped" = 0 ] || echo ", $skipped skipped") in $(cat "$outdir/$name.wall")s"
touch "$outdir/$name.ok"
