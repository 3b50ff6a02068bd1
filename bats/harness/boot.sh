#!/bin/bash
# Run the guest boot described by bats/boots/NAME.boot and judge it: TAP on stdout.
# usage: boot.sh KERNEL IMAGE OUTDIR NAME
# The guest's logs go to OUTDIR/NAME (run-qemu.sh); OUTDIR/pci.env, when
# there, gives the BAR addresses that kernel arguments name (EDU_BAR0...).
# CHECK_BATS (files) and CHECK_TESTS (a bats --filter regex) narrow the
# run; TIMEOUT_SCALE stretches its timeouts; HOST_MMIOCTL decodes its nvme
# trace. See bats/boots/README for the data file's variables.
set -eu
kernel=$1 image=$2 outdir=$3 name=$4
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
scale=${TIMEOUT_SCALE:-1}
case $scale in
''|*[!0-9]*|0) echo "boot: TIMEOUT_SCALE must be a positive integer, not '$scale'" >&2; exit 2 ;;
esac
filter=${CHECK_TESTS:-}
files=$("$here/boots.sh" files "$name")
[ -f "$outdir/pci.env" ] && . "$outdir/pci.env"
# What a host program beside the guest (HOST) and QEMU share: a socket
# (an absolute path: gdb takes a relative one for a host name).
HOST_DIR=$(cd "$outdir" && pwd)/$name.host
TIER="" TESTS="" COMMAND="" CPUS=2 TIMEOUT=300 TEST_TIMEOUT=120 ARGS="" QEMU="" ORACLE=no \
	REBOOT=no DEATH="" ENV="" DECODE=no DEPS="" HOST="" ARCH=x86_64
. "$top/bats/boots/$name.boot"
# Narrowed: some of its files, or some of their tests.
narrowed=no
[ "$files" = "$(echo $TESTS)" ] && [ -z "$filter" ] || narrowed=yes

if [ -z "$COMMAND" ]; then
	COMMAND="BATS_TEST_TIMEOUT=$((TEST_TIMEOUT * scale)) CPUS=$CPUS $ENV bats --formatter tap --timing"
	[ -z "$filter" ] || COMMAND="$COMMAND --filter '$(printf %s "$filter" | sed "s/'/'\\\\''/g")'"
	for file in $files; do
		COMMAND="$COMMAND /opt/mmio/bats/$file"
	done
fi
options=(-t $((TIMEOUT * scale)) -c "$CPUS")
[ "$ARCH" = x86_64 ] || options+=(-A "$ARCH")
[ "$ORACLE" != yes ] || options+=(-T)
[ "$REBOOT" != yes ] || options+=(-R)
[ -z "$ARGS" ] || options+=(-k "$ARGS")
[ -z "$QEMU" ] || options+=(-x "$QEMU")

# With HOST, its program runs beside the guest, and ends with QEMU if not
# before; its TAP lines are the boot's.
run_guest() {
	local host_pid
	rm -rf "$HOST_DIR"
	if [ -n "$HOST" ]; then
		mkdir -p "$HOST_DIR"
		"$top/bats/harness/$HOST" "$kernel" "$HOST_DIR" > "$HOST_DIR/tap" &
		host_pid=$!
	fi
	"$top/initramfs/run-qemu.sh" "${options[@]}" "$kernel" "$image" "$outdir/$name" "$COMMAND" > /dev/null || true
	[ -z "$HOST" ] || wait "$host_pid" || true
}

echo "check: boot $name: $([ "$ARCH" = x86_64 ] || echo "$ARCH, ")$CPUS CPUs, $(echo $files)${filter:+ (tests matching '$filter')} (log: $outdir/$name/console.log)" >&2
run_guest
# A TCG guest has, rarely, stopped for good before init (seen once on 4
# vCPUs: the console ends in a built-in driver's probe, no stall report,
# QEMU alive), before any test or tracing started. Such a boot runs once
# more, and says so; its logs stay in NAME.hung. A boot that dies on
# purpose (REBOOT) is left as it is.
if [ "$REBOOT" != yes ] && [ "$(cat "$outdir/$name/status" 2>/dev/null)" = timeout ] &&
	! grep -q 'Run /init as init process' "$outdir/$name/console.log" 2>/dev/null; then
	echo "check: $name: the guest stopped before init; booting it again (logs: $outdir/$name.hung)" >&2
	echo "# $name: the guest stopped before init and was booted again (logs: $outdir/$name.hung)"
	rm -rf "$outdir/$name.hung" && mv "$outdir/$name" "$outdir/$name.hung"
	run_guest
fi
"$here/verdict.sh" "$outdir/$name" "$name" "$DEATH" || true
if [ -n "$HOST" ]; then
	sed -n -E "s/^(not ok|ok) - /\1 - $name: host: /p" "$HOST_DIR/tap"
	grep -q -E '^(not )?ok ' "$HOST_DIR/tap" || echo "not ok - $name: host: $HOST said nothing (logs: $HOST_DIR)"
fi

# A narrowed run may hold no oracle scenario or no nvme trace: then there
# is nothing for the host to check.
if [ "$ORACLE" = yes ]; then
	if [ "$narrowed" = yes ] && ! grep -q '^ORACLE BEGIN' "$outdir/$name/oracle.log" 2>/dev/null; then
		echo "ok - $name: oracle: no scenario among the selected tests # skip narrowed run"
	else
		"$here/oracle.py" "$outdir/$name" || true
	fi
fi
if [ "$DECODE" = yes ]; then
	if [ "$narrowed" = yes ] && ! grep -q '^DECODE BEGIN' "$outdir/$name/oracle.log" 2>/dev/null; then
		echo "ok - $name: decode: no nvme trace among the selected tests # skip narrowed run"
	else
		"$here/decode.sh" "${HOST_MMIOCTL:?the host mmioctl}" "$top/ctl-tool/maps" "$outdir/$name" || true
	fi
fi
