#!/usr/bin/env bats
# Turning the tracer on and off: with an empty range set every mapping is
# traced, exactly as stock mmiotrace does.

load helpers

setup() {
	load_touch_module
	EDU=$(edu_bar0)
}

teardown() {
	reset_state
}

@test "onoff: the edu mapping, its read, write and unmap are traced exactly" {
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	touch_dev write edu 4 0x4 0x12345678
	touch_dev read edu 4 0x4
	touch_dev unmap edu
	id=$(map_id "$EDU")
	[ -n "$id" ]
	virt=$(trace_events | awk '$1 == "MAP" { print $4 }')
	assert_events "MAP $id $EDU $virt 0x1000 0x0 0
R 4 $id $EDU 0x10000ed 0x0 0
W 4 $id $(printf '0x%x' $((EDU + 4))) 0x12345678 0x0 0
R 4 $id $(printf '0x%x' $((EDU + 4))) 0xedcba987 0x0 0
UNMAP $id 0x0 0"
}

@test "onoff: nothing is traced once the tracer is off" {
	# A mapping made while the tracer was off is not traced; its unmap is
	# logged with map id -1, as stock mmiotrace does.
	tracer_on
	tracer_off
	touch_dev map edu
	touch_dev read edu 4 0x0
	tracer_on
	touch_dev read edu 4 0x0
	touch_dev unmap edu
	assert_events "UNMAP -1 0x0 0"
}

@test "onoff: a 8-byte access is traced with width 8" {
	tracer_on
	touch_dev map edu
	touch_dev read edu 8 0x0
	id=$(map_id "$EDU")
	trace_events | grep -qx "R 8 $id $EDU 0x[0-9a-f]* 0x0 0"
}
