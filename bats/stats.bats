#!/usr/bin/env bats
# The stats file: exact counters, equal to the events in the trace, reset
# when tracing starts. read, write and unknown count the accesses traced,
# whoever consumes them; lost counts those the tracer's buffer lost.

load helpers

count_events() {
	trace_events | grep -c "^$1 " || true
}

@test "stats: lists every counter as 'key value'" {
	run cat "$MMIOTRACE/stats"
	[ "$status" = 0 ]
	keys=$(echo "$output" | awk '{ print $1 }' | tr '\n' ' ')
	[ "$keys" = "read write unknown map unmap mark faults_outside maps_seen maps_traced maps_ignored arm_failed maps_unrecorded overridden dropped stepped exposed nested lost armed_leaves armed_bytes user_read user_write user_unknown user_maps user_released pio_read pio_write pio_missed syndrome " ]
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
	assert_stat read "$(count_events R)"
	assert_stat write "$(count_events W)"
	assert_stat map "$(count_events MAP)"
	assert_stat unmap "$(count_events UNMAP)"
	assert_stat mark "$(count_events MARK)"
	assert_stat read 5
	assert_stat write 3
	assert_stat map 1
	assert_stat unmap 1
	assert_stat mark 2
	assert_stat faults_outside 7
	assert_stat maps_seen 2
	assert_stat maps_traced 1
	assert_stat maps_ignored 1
	assert_stat lost 0
	assert_stat armed_bytes 0
}

@test "stats: enabling the tracer resets the counters" {
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	assert_stat read 1
	tracer_off
	assert_stat read 1
	tracer_on
	assert_stat read 0
	assert_stat maps_seen 0
}

# fill_small_buffer: a 64k buffer per CPU, and 5000 traced reads on CPU 0.
fill_small_buffer() {
	echo 64 > "$TRACING/buffer_size_kb"
	set_ranges "$EDU 4"
	tracer_on
	touch_dev map edu
	taskset -c 0 sh -c "echo 'repeat 5000 read edu 4 0x0' > $TOUCH/ctl"
}

# The events still in the buffer and the lost ones are all the events
# logged: the 5000 reads and the MAP event.
assert_reads_accounted() {
	in_buffer=$(trace_events | grep -c . || true)
	lost=$(stat_of lost)
	echo "# $in_buffer events in the buffer, $lost lost" >&3
	[ "$lost" -gt 0 ]
	[ $((in_buffer + lost)) = 5001 ] || { echo "$in_buffer in the buffer + $lost lost != 5001"; false; }
}

@test "stats: lost counts the events the buffer overwrote, and is reset only at enable" {
	fill_small_buffer
	assert_stat read 5000
	assert_reads_accounted
	# Refused while tracing_on is 0: neither lost nor marks; the read is
	# traced all the same.
	echo 0 > "$TRACING/tracing_on"
	for i in 1 2 3; do
		assert_write_fails EBADF /proc/mmio-marker 'while off\n'
	done
	touch_dev read edu 4 0x0
	assert_stat lost "$lost"
	assert_stat mark 0
	assert_stat read 5001
	# tracing_on 0 -> 1 clears the buffer, not the counters.
	echo 1 > "$TRACING/tracing_on"
	assert_stat lost "$lost"
	assert_stat read 5001
	touch_dev unmap edu
	tracer_off
	assert_stat lost "$lost"
	assert_stat read 5001
	tracer_on
	assert_stat lost 0
	assert_stat read 0
	tracer_off
}

@test "stats: lost counts the events a full buffer refused" {
	echo 0 > "$TRACING/options/overwrite"
	fill_small_buffer
	assert_reads_accounted
	assert_stat read 5000
	assert_eq "reads in the buffer" $((5000 - lost)) "$(count_events R)"
	tracer_off
}

# A clear of the buffer, and a change of tracer, hold recording while they
# wait for the commits in flight: what the buffer refuses then would have
# been cleared anyway, and is not lost.
@test "stats: no access is lost during a clear of the buffer or a change of tracer" {
	set_ranges "$EDU 4"
	tracer_on
	touch_dev map edu
	taskset -c 1 sh -c "echo 'repeat 5000 read edu 4 0x0' > $TOUCH/ctl" &
	reader=$!
	clears=0
	while kill -0 "$reader" 2>/dev/null; do
		: > "$TRACING/trace"
		clears=$((clears + 1))
	done
	wait "$reader"
	echo "# $clears clears during 5000 reads" >&3
	[ "$clears" -gt 1 ]
	assert_stat read 5000
	assert_stat lost 0
	taskset -c 1 sh -c "echo 'repeat 5000 read edu 4 0x0' > $TOUCH/ctl" &
	reader=$!
	until [ "$(stat_of read)" -gt 5100 ]; do sleep 0.01; done
	tracer_off
	wait "$reader"
	assert_stat lost 0
}
