#!/bin/bash
# Judge one guest run made by initramfs/run-qemu.sh.
# usage: verdict.sh OUTDIR LABEL [DEATH_ERE]
# Prints one "ok"/"not ok" line per guest test and per harness check
# (reported back, TAP plan complete, kernel log clean), prefixed by LABEL;
# a failed test is followed by its "#" diagnostic lines (expected and
# actual) and the log to open. Exits 1 when anything failed, with the
# first reason on stderr. DEATH_ERE: a run whose guest ends a boot on
# purpose (a panic, a reset) and boots again; the kernel log from the line
# that matches it to the next boot's first line is the death asked for, and
# is not judged.
set -u
outdir=$1 label=$2 death=${3:-}
status=$(cat "$outdir/status" 2>/dev/null || echo missing)
# Kernel messages that fail a run whatever the tests said; the guest's
# per-test check uses the same list.
splats=$(cd "$(dirname "$0")/.." && pwd)/splats.ere
failed=0

result() { # result OK|FAIL DESCRIPTION
	if [ "$1" = OK ]; then
		echo "ok - $label: $2"
	else
		echo "not ok - $label: $2"
		[ "$failed" = 1 ] || echo "$label: FAILED: $2 (logs: $outdir)" >&2
		failed=1
	fi
}

case $status in
timeout) result FAIL "guest timed out without reporting back" ;;
noreport*|missing) result FAIL "guest stopped without reporting back ($status)" ;;
esac

plan=$(grep -m1 -E '^1\.\.[0-9]+$' "$outdir/output.log" 2>/dev/null | cut -d. -f3)
count=0 diagnostics=0
# A failed test's diagnostics end with the log that has the rest.
end_diagnostics() {
	[ "$diagnostics" = 1 ] && echo "# output: $outdir/output.log"
	diagnostics=0
}
while IFS= read -r line; do
	case $line in
	"#"*)
		[ "$diagnostics" = 1 ] && echo "$line"
		continue ;;
	"ok "*)
		end_diagnostics
		desc=$(echo "$line" | sed -E 's/^ok [0-9]+ //')
		case $desc in
		*"# skip"*) echo "ok - $label: $desc" ;;
		*) result OK "$desc" ;;
		esac ;;
	*)
		end_diagnostics
		result FAIL "$(echo "$line" | sed -E 's/^not ok [0-9]+ //')"
		diagnostics=1 ;;
	esac
	count=$((count + 1))
done < <(grep -E '^((not )?ok [0-9]+|#)' "$outdir/output.log" 2>/dev/null)
end_diagnostics

if [ -z "$plan" ]; then
	result FAIL "guest printed no TAP plan"
elif [ "$plan" != "$count" ]; then
	result FAIL "TAP plan says $plan tests, guest reported $count"
fi
if [ "$status" != timeout ] && [ "${status%% *}" != noreport ] && [ "$status" != 0 ] &&
	[ "$failed" = 0 ]; then
	result FAIL "guest command exited with status $status"
fi

# The kernel log to judge, with "console.log:LINE:" kept right. The WARN
# of the bug planted in bats/module/fuzztarget.c, from its message to the
# end of its report, is what bats/fuzz.bats asks for.
judged_log() {
	awk -v death="$death" '
		death != "" && $0 ~ death { dying = 1 }
		/Linux version / { dying = 0 }
		/fuzztarget: bad index [0-9]+\r?$/ { planted = 1 }
		!dying && !planted { print NR ":" $0 }
		/---\[ end trace/ { planted = 0 }' "$outdir/console.log" 2>/dev/null
}
splat=$(judged_log | grep -m1 -E -f <(sed 's/^/^[0-9]+:.*/' "$splats"))
if [ -n "$splat" ]; then
	result FAIL "guest kernel log clean (console.log:${splat})"
else
	result OK "guest kernel log clean"
fi
exit "$failed"
