#!/usr/bin/env bats
# The stats file: exact counters, equal to the events in the trace, reset
# when the tracer is enabled.

load helpers

count_events() {
	trace_events | grep -c "^$1 " || true
}

@test "stats: lists every counter as 'key value'" {
	run cat "$MMIOTRACE/stats"
	[ "$status" = 0 ]
	keys=$(echo "$output" | awk '{ print $1 }' | tr '\n' ' ')
	[ "$keys" = "read write unknown map unmap mark faults_outside maps_seen maps_traced maps_ignored lost pages_armed " ]
	echo "$output" | grep -Evq '^[a-z_]+ [0-9]+$' && false || true
}

@test "stats: counters equal the lines in the trace" {
	set_ranges "$EDU 0x8"
	tracer_on
	touch_dev map edu
	touch_dev map vga
	touch_dev repeat 5 read edu 4 0x0
	touch_dev repeat 3 write edu 4 0x4 0x1
	touch_dev repeat 7 read edu 4 0x20
	touch_dev read vga 4 0x0
	echo "one" > /proc/mmio-marker
	echo "two" > /proc/mmio-marker
	touch_dev unmap edu
	touch_dev unmap vga
	[ "$(stat_of read)" = "$(count_events R)" ]
	[ "$(stat_of write)" = "$(count_events W)" ]
	[ "$(stat_of map)" = "$(count_events MAP)" ]
	[ "$(stat_of unmap)" = "$(count_events UNMAP)" ]
	[ "$(stat_of mark)" = "$(count_events MARK)" ]
	[ "$(stat_of read)" = 5 ]
	[ "$(stat_of write)" = 3 ]
	[ "$(stat_of map)" = 1 ]
	[ "$(stat_of unmap)" = 1 ]
	[ "$(stat_of mark)" = 2 ]
	[ "$(stat_of faults_outside)" = 7 ]
	[ "$(stat_of maps_seen)" = 2 ]
	[ "$(stat_of maps_traced)" = 1 ]
	[ "$(stat_of maps_ignored)" = 1 ]
	[ "$(stat_of lost)" = 0 ]
	[ "$(stat_of pages_armed)" = 0 ]
}

@test "stats: enabling the tracer resets the counters" {
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	[ "$(stat_of read)" = 1 ]
	tracer_off
	[ "$(stat_of read)" = 1 ]
	tracer_on
	[ "$(stat_of read)" = 0 ]
	[ "$(stat_of maps_seen)" = 0 ]
}
