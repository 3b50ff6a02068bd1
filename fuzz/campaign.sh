#!/bin/bash
# make fuzz DRIVER=...: boot the fuzz kernel and run mmioctl fuzz on
# DRIVER's device (fuzz/guest.sh) until TIME is spent. A guest that dies
# (a panic, an oops, a hang) is booted again with the journal of what it
# had saved, so that no input is lost and the one in flight is kept as a
# crash. Prints each boot's progress, then the crashes found.
# usage: campaign.sh KERNEL IMAGE OUTDIR DRIVER TIME   (TIME: N, Ns, Nm, Nh)
set -eu
kernel=$1 image=$2 out=$3 driver=$4 time=$5
case $time in
*h) seconds=$((${time%h} * 3600)) ;;
*m) seconds=$((${time%m} * 60)) ;;
*s) seconds=${time%s} ;;
*) seconds=$time ;;
esac
[[ $seconds =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] ||
	{ echo "fuzz: TIME must be N, Ns, Nm or Nh, not '$time'" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$out"
mkdir -p "$out"
: > "$out/journal"
start=$SECONDS boot=0
echo "fuzz: $driver for ${seconds}s on $kernel (log: $out/bootN)"
while left=$((seconds - (SECONDS - start))) && [ "$left" -gt 0 ]; do
	boot=$((boot + 1))
	cp "$out/journal" "$out/fuzz-journal"
	status=0
	"$top/initramfs/run-qemu.sh" -t $((left + 600)) -f "$out/fuzz-journal" \
		"$kernel" "$image" "$out/boot$boot" "sh /opt/mmio/fuzz/guest.sh $driver $left" \
		> /dev/null || status=$?
	tr -d '\r' < "$out/boot$boot/oracle.log" >> "$out/journal"
	grep -E '^(fuzz|crash)' "$out/boot$boot/output.log" | tail -n 8 | sed "s/^/boot $boot: /" || true
	[ "$status" = 0 ] && break
	echo "fuzz: boot $boot ended ($(cat "$out/boot$boot/status")): $out/boot$boot/console.log"
	grep -m1 -E 'BUG:|WARNING:|KASAN|Oops|Kernel panic|watchdog' "$out/boot$boot/console.log" |
		sed "s/^/boot $boot: /" || true
done
"$top/fuzz/journal.sh" "$out/journal" "$out/state"
echo "fuzz: $boot boots, state in $out/state"
for crash in "$out"/state/crash-*.txt "$out"/state/crash-*.input; do
	[ -e "$crash" ] || continue
	echo "fuzz: $crash: $(head -n 1 "$crash")"
done
