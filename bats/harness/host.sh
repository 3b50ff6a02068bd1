#!/bin/bash
# The host's unit tests of mmioctl (ctl-tool/tests): TAP on stdout, the log in OUTDIR/host-tests.log.
# usage: host.sh OBJDIR OUTDIR
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
objdir=$1 log=$2/host-tests.log
echo "check: host unit tests (log: $log)" >&2
status=0
make -s -C "$top/ctl-tool" O="$objdir" test > "$log" 2>&1 || status=$?
grep -E '^(not )?ok ' "$log" || true
if [ "$status" != 0 ] && ! grep -q '^not ok' "$log"; then
	echo "not ok - host unit tests did not run (log: $log)"
	tail -n 5 "$log" | sed 's/^/# /'
fi
