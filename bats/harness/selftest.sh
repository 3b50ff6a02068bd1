#!/bin/bash
# The harness tests itself: each boot injects one failure that the verdict
# must see, using the same runner and verdict as the real run; then the
# host side of make check (part.sh, summary.sh, boots.sh) on made-up parts.
# usage: selftest.sh KERNEL IMAGE OUTDIR    (prints ok/not ok lines)
set -u
kernel=$1 image=$2 outdir=$3
here=$(cd "$(dirname "$0")" && pwd)
fixtures=/opt/mmio/bats/harness/fixtures
touch_ctl=/sys/kernel/debug/mmiotouch/ctl
load_module="insmod /opt/mmio/modules/mmiotouch.ko"

boot() { # boot NAME TIMEOUT COMMAND
	echo "check: harness self-test '$1'" >&2
	"$here/../../initramfs/run-qemu.sh" -t "$2" "$kernel" "$image" "$outdir/$1" "$3" >/dev/null
}

expect_verdict() { # expect_verdict green|red NAME WHAT
	local reason
	reason=$("$here/verdict.sh" "$outdir/$2" "$2" 2>&1 >/dev/null)
	if [ -z "$reason" ] && [ "$1" = green ]; then
		echo "ok - harness: $3 gives a green verdict"
	elif [ -n "$reason" ] && [ "$1" = red ]; then
		echo "ok - harness: $3 turns the verdict red ($reason)"
	else
		echo "not ok - harness: $3 should give a $1 verdict (logs: $outdir/$2)"
	fi
}

boot passing 120 "bats --formatter tap $fixtures/passing.bats"
expect_verdict green passing "a passing bats fixture"
boot failing 120 "bats --formatter tap $fixtures/failing.bats"
expect_verdict red failing "a failing bats fixture"
# What make check prints of a failure: the test's own lines, and the log.
if "$here/verdict.sh" "$outdir/failing" failing 2>/dev/null |
	grep -A3 -x 'not ok - failing: fixture: this test fails on purpose' |
	grep -qx '# expected 5, actual 4'; then
	echo "ok - harness: a failing test is shown with its expected and actual values"
else
	echo "not ok - harness: a failing test is shown without its expected and actual values (logs: $outdir/failing)"
fi
boot warn 120 "$load_module && echo warn > $touch_ctl && bats --formatter tap $fixtures/passing.bats"
expect_verdict red warn "a WARN from the test module"
boot panic 120 "$load_module && echo panic > $touch_ctl; bats --formatter tap $fixtures/passing.bats"
expect_verdict red panic "a kernel panic"
boot hang 20 "sleep 100000"
expect_verdict red hang "a guest that hangs"

# The host side, without a guest: a part that dies without TAP fails, the
# summary ends with the count and fails on a failure or a missing part,
# and the boot data files name bats files that exist.
host=$outdir/host
rm -rf "$host" && mkdir -p "$host" && touch "$host/.started"
"$here/part.sh" "$host" dies sh -c 'exit 3' > /dev/null
"$here/part.sh" "$host" passes echo "ok 1 - fine in 5ms" > /dev/null
if grep -qx 'not ok - dies: exited with status 3 (output: .*)' "$host/dies.tap" 2>/dev/null &&
	[ -e "$host/passes.ok" ]; then
	echo "ok - harness: a part that exits non-zero without results fails"
else
	echo "not ok - harness: a part that exits non-zero without results should fail (logs: $host)"
fi
status=0
"$here/summary.sh" "$host" passes dies missing > "$host/summary.log" 2>&1 || status=$?
last=$(tail -n 1 "$host/summary.log")
if [ "$last" = "1 passed, 2 failed" ] && [ "$status" = 1 ]; then
	echo "ok - harness: the summary counts a missing part as failed and ends with '$last'"
else
	echo "not ok - harness: the summary should end with '1 passed, 2 failed' and fail, not '$last' ($status)"
fi
wrong=""
for boot in "$here"/../boots/*.boot; do
	name=$(basename "$boot" .boot)
	for file in $("$here/boots.sh" files "$name"); do
		[ -f "$here/../$file" ] || wrong="$wrong $name:$file"
	done
	grep -Eq '^TIER=(quick|slow|stress|bench|deb)$' "$boot" || wrong="$wrong $name:TIER"
done
if [ -z "$wrong" ]; then
	echo "ok - harness: every boot data file has a tier and names bats files that exist"
else
	echo "not ok - harness: boot data files with a wrong tier or file:$wrong"
fi
