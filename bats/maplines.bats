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
	# The clear logs the MAP of vga again too, soon: not asserted here.
	assert_eq "events" "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0" "$(trace_events | grep -v "^MAP [0-9]* $VGA ")"
}

# clear_by WAY: one of the ways the buffer loses its events besides
# tracing_on going from 0 to 1.
clear_by() {
	local cpu
	case $1 in
	trace) : > "$TRACING/trace" ;;
	per_cpu)
		for cpu in "$TRACING"/per_cpu/cpu*; do
			: > "$cpu/trace"
		done ;;
	snapshot) echo 1 > "$TRACING/snapshot" ;;
	buffer_size_kb) echo 16 > "$TRACING/buffer_size_kb" ;;
	esac
}

@test "maplines: after a clear of any kind, the next access comes after its mapping's MAP line" {
	set_ranges "$EDU 4k"
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	read_map "$EDU"
	expected="MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0"
	for way in trace per_cpu snapshot buffer_size_kb; do
		clear_by "$way"
		touch_dev read edu 4 0x0
		# A resize may keep the older lines: the MAP line comes again.
		[ "$way" = buffer_size_kb ] && events=$(trace_events | tail -n 2) ||
			events=$(trace_events)
		assert_eq "after a clear by $way" "$expected" "$events"
	done
	echo 0 > "$TRACING/snapshot"
}

@test "maplines: an instance that enables mmio_map after another gets the MAP events in its own buffer" {
	set_ranges "$EDU 4k"
	first=$(new_instance first)
	echo 1 > "$first/events/mmiotrace/enable"
	touch_dev map edu
	touch_dev read edu 4 0x0
	id=$(mapping_id "$EDU")
	second=$(new_instance second)
	echo 1 > "$second/events/mmiotrace/enable"
	touch_dev read edu 4 0x0
	map="mmio_map map_id=$id phys=$EDU virt=$(touch_virt edu) len=0x1000 pid=0"
	read_line="mmio_read phys=$EDU value=0x10000ed width=4 map_id=$id pc=0x0"
	assert_eq "the second instance" "$map
$read_line" "$(event_lines "$second/trace")"
	assert_eq "the first instance" "$map
$read_line
$read_line" "$(event_lines "$first/trace")"
	echo 0 > "$first/events/mmiotrace/enable"
	echo 0 > "$second/events/mmiotrace/enable"
	rmdir "$first" "$second"
}
