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

. /opt/mmio/pci.sh
edu=$(edu_bar0)
vga=$(vga_bar0)
printf 'RESULT edu_bar0 %d\n' "$edu"
runtime=0
[ -d "$ctl" ] && runtime=1

# measure1 NAME ACCESS...: ns per access over COUNT accesses.
measure1() {
	local name=$1
	shift
	echo "repeat $count $*" > "$touch/ctl"
	echo "RESULT $name $(( $(cat "$touch/elapsed_ns") / count ))"
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
# lost: events the buffer dropped this session (stock has no counter: 0).
lost() { awk '$1 == "lost" { print $2 }' "$ctl/stats" 2>/dev/null || echo 0; }
tracer_off() { echo nop > "$tracing/current_tracer"; }
map_both() { echo "map edu" > "$touch/ctl"; echo "map vga" > "$touch/ctl"; }
# The whole 16M VGA BAR: ioremap() maps it with 2M pages.
map_big() { echo "map edu" > "$touch/ctl"; echo "map vga 0 0x1000000" > "$touch/ctl"; }
unmap_both() { echo "unmap edu" > "$touch/ctl"; echo "unmap vga" > "$touch/ctl"; }

# setup_for SCENARIO: tracer state and range set for one scenario.
setup_for() {
	tracer_off
	case $1 in
	off) return ;;
	traced) [ "$runtime" = 1 ] && set_ranges "$edu 1M" ;;
	subpage) set_ranges "$(printf '0x%x' $((edu + 0x800))) 16" ;;
	range4) printf '%s 4\n0x%x 4\n' "$edu" $((vga + 0x100000)) > "$ctl/ranges" ;;
	ranges*) cat "/tmp/ranges.${1#ranges}" > "$ctl/ranges" ;;
	esac
	tracer_on
}

# One round measures every scenario once, so that drift in the emulator's
# speed spreads over all of them instead of favouring some.
scenarios="off traced"
if [ "$runtime" = 1 ]; then
	for n in 1 16 256 1024; do ranges_with "$n" > /tmp/ranges.$n; done
	scenarios="$scenarios subpage range4 ranges1 ranges16 ranges256 ranges1024"
fi
for round in $(seq 1 "$repeats"); do
	for scenario in $scenarios; do
		setup_for "$scenario"
		if [ "$scenario" = range4 ]; then map_big; else map_both; fi
		case $scenario in
		off)
			measure1 off_read read edu 4 0x0
			measure1 off_write write edu 4 0x4 0x1
			measure1 off_vga_read read vga 4 0x0 ;;
		traced)
			# edu in the set (stock: filter_offset is the edu BAR);
			# the VGA mapping outside it, never armed.
			measure1 traced_read read edu 4 0x0
			measure1 traced_write write edu 4 0x4 0x1
			measure1 outside_vga_read read vga 4 0x0 ;;
		subpage)
			# Armed page, access outside a 16-byte range.
			measure1 subpage_outside_read read edu 4 0x0 ;;
		range4)
			# A 4-byte range in a 4K page (edu) and in a 2M page
			# (VGA): the bytes in it, and bytes of the same
			# armed page outside it.
			measure1 range4_4k_traced_read read edu 4 0x0
			measure1 range4_4k_untraced_read read edu 4 0x8
			measure1 range4_pmd_traced_read read vga 4 0x100000
			measure1 range4_pmd_untraced_read read vga 4 0x100010 ;;
		*)
			measure1 "${scenario}_read" read edu 4 0x0 ;;
		esac
		unmap_both
	done
done
tracer_off

if [ "$runtime" = 1 ]; then
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

# ioremap() + iounmap() of 4K of the VGA BAR: tracer off (ours still
# records the mapping), and on with the VGA outside what is traced.
for i in $(seq 1 "$repeats"); do
	echo "remap $count vga" > "$touch/ctl"
	echo "RESULT remap_off_ns $(( $(cat "$touch/elapsed_ns") / count ))"
	setup_for traced
	echo "remap $count vga" > "$touch/ctl"
	echo "RESULT remap_outside_ns $(( $(cat "$touch/elapsed_ns") / count ))"
	tracer_off
done

# Traced reads from one CPU, then from two at once (stock takes the
# second CPU offline): events per second, and the events neither in the
# buffer nor counted as lost (should be 0).
# parallel_reads N CPU...: N reads of edu's id register on each CPU.
parallel_reads() {
	local n=$1 cpu start end events
	shift
	setup_for traced
	echo "map edu" > "$touch/ctl"
	start=$EPOCHREALTIME
	for cpu in "$@"; do
		taskset -c "$cpu" sh -c "echo 'repeat $n read edu 4 0x0' > $touch/ctl" &
	done
	wait
	end=$EPOCHREALTIME
	events=$((n * $#))
	echo "RESULT events_per_s_$#cpu $(( events * 1000000 / (${end/./} - ${start/./}) ))"
	echo "RESULT events_unaccounted_$#cpu $(( events - $(grep -c '^R ' "$tracing/trace") - $(lost) ))"
	echo "unmap edu" > "$touch/ctl"
	tracer_off
}
if [ "$runtime" = 1 ] && [ "$(nproc)" -ge 2 ]; then
	echo 8192 > "$tracing/buffer_size_kb"
	for i in $(seq 1 "$repeats"); do
		parallel_reads $((count * 4)) 0
		parallel_reads $((count * 2)) 0 1
	done
	echo 1408 > "$tracing/buffer_size_kb"
fi

# Events per second until the ring buffer (default size, nobody reading)
# loses events: traced reads in chunks until "lost" counts some (at most
# 40 chunks; stock has no counter and always runs them all).
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
if [ "$runtime" = 1 ]; then
	echo "RESULT events_until_loss $events"
	echo "RESULT lost_events $(lost)"
fi
echo "RESULT buffer_size_kb $(cat "$tracing/buffer_size_kb")"
echo "unmap edu" > "$touch/ctl"
tracer_off
