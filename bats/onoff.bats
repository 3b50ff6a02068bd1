#!/usr/bin/env bats
# Turning the tracer on and off: with an empty range set every mapping is
# traced, exactly as stock mmiotrace does.

load helpers

@test "onoff: the edu mapping, its read, write and unmap are traced exactly" {
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	touch_dev write edu 4 0x4 0x12345678
	touch_dev read edu 4 0x4
	touch_dev unmap edu
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0
W 4 $ID $(hex EDU+4) 0x12345678 0x0 0
R 4 $ID $(hex EDU+4) 0xedcba987 0x0 0
UNMAP $ID 0x0 0"
	oracle_record onoff-edu "$EDU" 0x1000 4
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

@test "onoff: an 8-byte access is traced with width 8" {
	tracer_on
	touch_dev map edu
	touch_dev read edu 8 0x0
	read_map "$EDU"
	value=$(touch_value)
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 8 $ID $EDU $value 0x0 0"
}

@test "onoff: the controls exist and can be set while the tracer is off" {
	set_ranges "$EDU 4k"
	echo 1 > "$MMIOTRACE/trace_pc"
	assert_ranges "$EDU 0x1000"
	[ "$(cat "$MMIOTRACE/trace_pc")" = 1 ]
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	trace_events | grep -q "^R 4 [0-9]* $EDU 0x10000ed $KERNEL_PC[0-9a-f]* 0$"
}

# The buffer's header under nop: "# entries-in-buffer/entries-written: E/W".
buffer_counts() {
	sed -nE 's/^# entries-in-buffer\/entries-written: ([0-9]+\/[0-9]+) .*/\1/p' "$TRACING/trace"
}

@test "onoff: what the buffer held before the tracer was enabled is cleared" {
	tracer_off
	echo "before the session" > "$TRACING/trace_marker"
	[ "$(buffer_counts)" = 1/1 ]
	tracer_on
	touch_dev map edu
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0"
}

@test "onoff: disabling clears the session's lines and counts, the next session starts empty" {
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	tracer_off
	[ "$(buffer_counts)" = 0/0 ]
	touch_dev unmap edu
	tracer_on
	tracer_off
	[ "$(buffer_counts)" = 0/0 ]
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0"
}
