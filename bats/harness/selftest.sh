#!/bin/bash
# The harness tests itself: each boot injects one failure that the verdict
# must see, using the same runner and verdict as the real run.
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
boot hang 30 "sleep 100000"
expect_verdict red hang "a guest that hangs"
