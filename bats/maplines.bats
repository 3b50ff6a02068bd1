#!/usr/bin/env bats
# Every R, W or UNKNOWN line of the tracer has its mapping's MAP line in
# the same buffer: a MAP refused (tracing_on 0, the buffer full) is logged
# before the mapping's next access, and the tracer's own clearing of the
# buffer when tracing_on goes from 0 to 1 logs every traced mapping's MAP
# again.

load helpers

@test "maplines: a mapping made while tracing_on is 0 has its MAP once tracing resumes" {
	set_ranges "$EDU 4k"
	tracer_on
	echo 0 > "$TRACING/tracing_on"
	touch_dev map edu
	echo 1 > "$TRACING/tracing_on"
	touch_dev read edu 4 0x0
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0"
}

@test "maplines: resuming tracing logs the MAP of every traced mapping again" {
	set_ranges "$EDU 4k
$VGA 4k"
	tracer_on
	touch_dev map edu
	touch_dev map vga
	touch_dev read edu 4 0x0
	read_map "$EDU"
	EDU_ID=$ID EDU_VIRT=$VIRT
	read_map "$VGA"
	echo 0 > "$TRACING/tracing_on"
	echo 1 > "$TRACING/tracing_on"
	touch_dev read edu 4 0x0
	assert_events "MAP $EDU_ID $EDU $EDU_VIRT 0x1000 0x0 0
MAP $ID $VGA $VIRT 0x1000 0x0 0
R 4 $EDU_ID $EDU 0x10000ed 0x0 0"
}

@test "maplines: a MAP that a full buffer refused is logged before the next access" {
	set_ranges "$EDU 4k
$VGA 4k"
	echo 0 > "$TRACING/options/overwrite"
	echo 4 > "$TRACING/buffer_size_kb"
	tracer_on
	touch_dev map vga
	# Fill every CPU's buffer, then map edu: its MAP finds no room.
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$cpu" sh -c "echo 'repeat 1000 read vga 4 0x0' > $TOUCH/ctl"
	done
	touch_dev map edu
	lost=$(stat_of lost)
	[ "$lost" -gt 0 ]
	! trace_events | grep -q "^MAP [0-9]* $EDU " || false
	: > "$TRACING/trace"
	touch_dev read edu 4 0x0
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0"
}
