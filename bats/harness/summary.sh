#!/bin/bash
# The end of make check: every part's wall time, the 15 slowest tests, the failures, then "N passed, N failed".
# usage: summary.sh OUTDIR PART...
# Reads OUTDIR/PART.tap and .wall (part.sh); a part without results fails.
# OUTDIR/.started is touched when the run starts: a part whose results are
# older was up to date, and not run again. Exits 1 unless all passed.
set -eu
outdir=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
all=$outdir/results.tap
: > "$all"
ran="" kept=""
for part in "$@"; do
	tap=$outdir/$part.tap
	if [ ! -f "$tap" ]; then
		echo "not ok - $part: no results (it did not run to the end; see the output above)" >> "$all"
		continue
	fi
	cat "$tap" >> "$all"
	wall=$(cat "$outdir/$part.wall" 2>/dev/null || echo '?')
	if [ "$tap" -nt "$outdir/.started" ]; then
		ran="$ran $part ${wall}s,"
	else
		kept="$kept $part ${wall}s,"
	fi
done
# A bats file that no boot runs is a test lost.
for file in $("$here/boots.sh" orphans); do
	echo "not ok - boots: $file is in no boot (bats/boots/*.boot)" >> "$all"
done

slowest=$(sed -n 's/^\(not \)\{0,1\}ok - \(.*\) in \([0-9]*\)ms$/\3 \2/p' "$all" | sort -k1,1nr | head -n 15 |
	awk '{ ms = $1; $1 = ""; printf "  %6.1fs %s\n", ms / 1000, substr($0, 2) }')
[ -z "$slowest" ] || printf 'check: the 15 slowest tests (bats --timing):\n%s\n' "$slowest"
if [ -n "$ran" ]; then
	echo "check: run now, wall time:${ran%,}"
	echo "check: whole run: $(($(date +%s) - $(stat -c %Y "$outdir/.started")))s"
fi
if [ -n "$kept" ]; then
	echo "check: up to date, not run again (wall time when last run):${kept%,}"
fi
[ -n "$ran" ] || echo "check: nothing changed since the last run, nothing was run again (RERUN=1 runs it anyway)"
skipped=$(grep -c '^ok .*# skip' "$all" || true)
passed=$(($(grep -c '^ok ' "$all" || true) - skipped))
failed=$(grep -c '^not ok ' "$all" || true)
if [ "$failed" -gt 0 ]; then
	echo "check: FAILED, results in $all:"
	grep '^not ok ' "$all" | sed 's/^/  /'
fi
summary="$passed passed, $failed failed"
[ "$skipped" = 0 ] || summary="$summary, $skipped skipped"
echo "$summary"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
