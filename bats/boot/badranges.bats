#!/usr/bin/env bats
# Run by make check in a boot of its own, with
#   mmiotrace.ranges=oops trace_event=mmiotrace:*
# A range set that is not valid keeps tracing from starting at boot: an
# empty set would trace every mapping made from then on.

load ../helpers

setup() {
	E1000=$(e1000_bar0)
}

# The events' state is the subject: the last test switches them off.
teardown() { :; }

@test "badranges: the boot logs why it does not trace, and nothing is armed" {
	[ "$(dmesg | grep -c '^mmiotrace: ')" = 2 ]
	dmesg | grep -qx 'mmiotrace: ranges=oops: not SIZE@ADDR\[,SIZE@ADDR\.\.\.\], the range set stays empty'
	dmesg | grep -qx 'mmiotrace: not tracing from boot: -22'
	assert_ranges ""
	[ "$(cat "$TRACING/events/mmiotrace/enable")" = 1 ]
	assert_stat maps_traced 0
	assert_stat armed_bytes 0
	[ "$(grep -c ': mmio_' "$TRACING/trace")" = 0 ]
}

@test "badranges: the events switched off and on again trace the set given since" {
	echo "$E1000 128k" > "$MMIOTRACE/ranges"
	echo 0 > "$TRACING/events/mmiotrace/enable"
	echo 1 > "$TRACING/events/mmiotrace/enable"
	[ "$(grep -c ': mmio_map: ' "$TRACING/trace")" = 1 ]
	sed -nE 's/^.*: mmio_map: //p' "$TRACING/trace" | grep -Eqx "map_id=[0-9]+ phys=$E1000 virt=0x[0-9a-f]+ len=0x20000 pid=0"
	assert_stat armed_bytes 131072
	echo 0 > "$TRACING/events/mmiotrace/enable"
	echo > "$MMIOTRACE/ranges"
	assert_stat armed_bytes 0
}
