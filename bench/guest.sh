#!/bin/bash
# Guest side of "make bench": time MMIO accesses through the test module's
# repeat command under each tracing setup, and print one result line each:
#   RESULT <name> <ns per op> (one line per repetition)
# usage: guest.sh COUNT REPEATS
# On a kernel without the runtime controls (STOCK=1), only the setups that
# stock mmiotrace can express are measured; it must be booted with
# mmiotrace.filter_offset=<edu BAR0> so that the VGA mapping is untraced.
set -eu
count=$1 repeats=$2
tracing=/sys/kernel/tracing
ctl=/sys/kernel/debug/mmiotrace
touch=/sys/kernel/debug/mmiotouch
[ -d "$touch" ] || insmod /opt/mmio/modules/mmiotouch.ko

bar0() {
	local dev
	for dev in /sys/bus/pci/devices/*; do
		[ "$(cat "$dev/device")" = "$1" ] || continue
		printf '0x%x\n' "$(head -n 1 "$dev/resource" | cut -d' ' -f1)"
	done
}
edu=$(bar0 0x11e8)
printf 'RESULT edu_bar0 %d\n' "$edu"
runtime=0
[ -d "$ctl" ] && runtime=1

# measure NAME ACCESS...: ns per access, REPEATS times.
measure() {
	local name=$1 i
	shift
	for i in $(seq 1 "$repeats"); do
		echo "repeat $count $*" > "$touch/ctl"
		echo "RESULT $name $(( $(cat "$touch/elapsed_ns") / count ))"
	done
}

# seconds NAME COMMAND: wall time of a shell command, in microseconds.
seconds() {
	local name=$1 start end
	shift
	start=$EPOCHREALTIME
	"$@"
	end=$EPOCHREALTIME
	echo "RESULT $name $(( ${end/./} - ${start/./} ))"
}

set_ranges() { printf '%s\n' "$1" > "$ctl/ranges"; }
# ranges_with N: the edu BAR plus N-1 one-byte ranges below 1 MiB.
ranges_with() {
	local i
	echo "$edu 0x100000"
	for i in $(seq 1 $(($1 - 1))); do printf '0x%x 1\n' $((i * 2)); done
}

tracer_on() { echo mmiotrace > "$tracing/current_tracer"; }
tracer_off() { echo nop > "$tracing/current_tracer"; }
map_both() { echo "map edu" > "$touch/ctl"; echo "map vga" > "$touch/ctl"; }
unmap_both() { echo "unmap edu" > "$touch/ctl"; echo "unmap vga" > "$touch/ctl"; }

map_both
measure off_read read edu 4 0x0
measure off_write write edu 4 0x4 0x1
measure off_vga_read read vga 4 0x0
unmap_both

# Traced: the edu BAR is in the set (stock: filter_offset is the edu BAR).
[ "$runtime" = 1 ] && set_ranges "$edu 1M"
tracer_on
map_both
measure traced_read read edu 4 0x0
measure traced_write write edu 4 0x4 0x1
# The VGA mapping is outside the set: never armed.
measure outside_vga_read read vga 4 0x0
unmap_both
tracer_off

if [ "$runtime" = 1 ]; then
	# Armed page, access outside a 16-byte range: stepped, not logged.
	set_ranges "$(printf '0x%x' $((edu + 0x800))) 16"
	tracer_on
	map_both
	measure subpage_outside_read read edu 4 0x0
	unmap_both
	tracer_off

	for n in 1 16 256 1024; do
		ranges_with "$n" > /tmp/ranges.$n
		cat /tmp/ranges.$n > "$ctl/ranges"
		tracer_on
		map_both
		measure "ranges${n}_read" read edu 4 0x0
		unmap_both
		tracer_off
	done

	# Rewriting the set while tracing a live mapping.
	tracer_on
	map_both
	for i in $(seq 1 "$repeats"); do
		seconds rewrite_ranges_us cp /tmp/ranges.16 "$ctl/ranges"
		seconds rewrite_ranges_us cp /tmp/ranges.1 "$ctl/ranges"
	done
	unmap_both
	tracer_off
	: > "$ctl/ranges"
fi

for i in $(seq 1 "$repeats"); do
	seconds enable_us tracer_on
	seconds disable_us tracer_off
done

# Events per second until the ring buffer (default size, nobody reading)
# loses events: traced reads in chunks until "lost" counts some (at most
# 40 chunks; stock has no counter and always runs them all).
lost() { awk '$1 == "lost" { print $2 }' "$ctl/stats" 2>/dev/null || echo 0; }
tracer_on
echo "map edu" > "$touch/ctl"
events=0 elapsed=0 chunk=$((count * 5))
for i in $(seq 1 40); do
	echo "repeat $chunk read edu 4 0x0" > "$touch/ctl"
	events=$((events + chunk))
	elapsed=$((elapsed + $(cat "$touch/elapsed_ns")))
	[ "$runtime" = 1 ] && [ "$(lost)" -gt 0 ] && break
done
echo "RESULT events_per_s $(( events * 1000000000 / elapsed ))"
echo "RESULT events_until_loss $events"
[ "$runtime" = 1 ] && echo "RESULT lost_events $(lost)"
echo "RESULT buffer_size_kb $(cat "$tracing/buffer_size_kb")"
echo "unmap edu" > "$touch/ctl"
tracer_off
