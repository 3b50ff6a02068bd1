#!/usr/bin/env bats
# The mmiotrace events: enabling any of them, in the top-level buffer or in
# an instance, traces what the range set selects, as the tracer does; the
# tracing core's filters, triggers and histograms work on them, instances
# each get their share, and trace-cmd records them.

load helpers

# edu's registers: the identification, the inverse of what was written
# last ("card liveness check"), the factorial's argument.
ID_REG=0x0
INVERSE=0x4
FACTORIAL=0x8

setup() {
	mmio_setup
	set_ranges "$EDU 4k"
	touch_dev map edu
}

# writes_and_reads N: write 1..N to the inverse register, reading it back
# after each write.
writes_and_reads() {
	local i
	for i in $(seq 1 "$1"); do
		touch_dev write edu 4 "$INVERSE" "$i"
		touch_dev read edu 4 "$INVERSE"
	done
}

@test "events: an event arms the set, the last consumer disarms it as it was" {
	virt=$(touch_virt edu)
	before=$(page_entries "$virt" "$((virt + 4096))")
	echo 1 > "$EVENTS/mmio_read/enable"
	assert_stat armed_bytes 4096
	# The tracer is a consumer too; going, it leaves the event's.
	tracer_on
	tracer_off
	assert_stat armed_bytes 4096
	touch_dev read edu 4 "$ID_REG"
	assert_eq "events" "R 4 $EDU 0x10000ed" "$(event_accesses)"
	echo 0 > "$EVENTS/mmio_read/enable"
	assert_stat armed_bytes 0
	assert_eq "page-table entries" "$before" "$(page_entries "$virt" "$((virt + 4096))")"
}

@test "events: every field is in the event, and its format describes it" {
	for field in "u64 phys" "u64 value" "unsigned long pc" "u64 device" "int map_id" "u8 width" \
		"u8 override"; do
		grep -q "field:$field;" "$EVENTS/mmio_write/format" ||
			{ echo "no field '$field'"; cat "$EVENTS/mmio_write/format"; false; }
	done
	echo 1 > "$TRACING/options/fields"
	echo 1 > "$EVENTS/enable"
	touch_dev write edu 4 "$INVERSE" 0x1234
	id=$(mapping_id "$EDU")
	phys=$((EDU + INVERSE))
	fields="phys=$(hex phys) ($phys) value=0x1234 (4660) pc=0x0 (0) device=0x0 (0)"
	fields="$fields map_id=$(printf '0x%x (%d)' "$id" "$id") width=(4) override=(0)"
	grep -qF "mmio_write: $fields" "$TRACING/trace" ||
		{ echo "no line with: $fields"; grep mmio_ "$TRACING/trace"; false; }
}

@test "events: the tracer and an instance see the same accesses at once" {
	dir=$(new_instance both)
	echo 1 > "$dir/events/mmiotrace/enable"
	tracer_on
	writes_and_reads 5
	touch_dev read edu 4 "$ID_REG"
	oracle_record_events events-both "$EDU" 0x1000 4 "$dir"
	assert_eq "accesses" "$(tracer_accesses)" "$(event_accesses "$dir/trace")"
	assert_eq "events" 11 "$(event_accesses "$dir/trace" | wc -l)"
}

@test "events: a filter keeps one register's writes of bit 0; the others are done, not recorded" {
	echo "phys == $(hex EDU+INVERSE) && value & 1" > "$EVENTS/mmio_write/filter"
	echo 1 > "$EVENTS/mmio_write/enable"
	for value in 1 2 3 4; do
		touch_dev write edu 4 "$INVERSE" "$value"
	done
	touch_dev write edu 4 "$FACTORIAL" 3
	touch_dev read edu 4 "$INVERSE"
	assert_value 0xfffffffb
	assert_eq "events" "W 4 $(hex EDU+INVERSE) 0x1
W 4 $(hex EDU+INVERSE) 0x3" "$(event_accesses)"
	assert_stat write 5
}

@test "events: a traceoff trigger stops the recording right after the write it names" {
	echo 1 > "$EVENTS/enable"
	echo "traceoff if phys == $(hex EDU+INVERSE) && value == 3" > "$EVENTS/mmio_write/trigger"
	writes_and_reads 5
	assert_eq "tracing_on" 0 "$(cat "$TRACING/tracing_on")"
	assert_eq "last event" "W 4 $(hex EDU+INVERSE) 0x3" "$(event_accesses | tail -n 1)"
	assert_eq "events" 5 "$(event_accesses | wc -l)"
	# Tracing stopped, the accesses went on.
	assert_value 0xfffffffa
}

@test "events: a snapshot trigger keeps the buffer as it was at the write it names" {
	echo 1 > "$EVENTS/enable"
	echo "snapshot if phys == $(hex EDU+INVERSE) && value == 2" > "$EVENTS/mmio_write/trigger"
	writes_and_reads 4
	assert_eq "snapshot's last event" "W 4 $(hex EDU+INVERSE) 0x2" \
		"$(event_accesses "$TRACING/snapshot" | tail -n 1)"
	assert_eq "events in the snapshot" 3 "$(event_accesses "$TRACING/snapshot" | wc -l)"
	assert_eq "events in the buffer since" 5 "$(event_accesses | wc -l)"
}

@test "events: a stacktrace trigger gives the driver's call chain at an access" {
	echo 1 > "$EVENTS/mmio_write/enable"
	echo "stacktrace if phys == $(hex EDU+INVERSE)" > "$EVENTS/mmio_write/trigger"
	touch_dev write edu 4 "$INVERSE" 7
	# The test module's write command, then the write to its debugfs file.
	grep -A 30 '<stack trace>' "$TRACING/trace" > "$BATS_TEST_TMPDIR/stack"
	grep -q '=> do_access' "$BATS_TEST_TMPDIR/stack" &&
		grep -q '=> ctl_write' "$BATS_TEST_TMPDIR/stack" ||
		{ cat "$BATS_TEST_TMPDIR/stack"; false; }
}

# key VALUE: a hex key as a histogram prints it: no 0x, no padding.
key() {
	printf '%x' "$(($1))"
}

# hist_count FILE KEY...: the hitcount of a histogram's entry whose keys
# print as KEY... (e.g. "phys: fea00000").
hist_count() {
	local file=$1
	shift
	awk -v keys="$*" '
		index($0, "{ " keys " }") == 1 {
			sub(/.*hitcount: */, ""); print $1; found = 1 }
		END { if (!found) print 0 }' "$file"
}

@test "events: histograms count each register's accesses, and each value, in the kernel" {
	echo 1 > "$EVENTS/enable"
	echo 'hist:keys=phys.hex:vals=hitcount' > "$EVENTS/mmio_read/trigger"
	echo 'hist:keys=phys.hex,value.hex:vals=hitcount' > "$EVENTS/mmio_write/trigger"
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$cpu" sh -c "echo 'repeat 5 read edu 4 $ID_REG' > $TOUCH/ctl
			echo 'repeat 3 write edu 4 $INVERSE 0x11' > $TOUCH/ctl
			echo 'write edu 4 $INVERSE 0x22' > $TOUCH/ctl
			echo 'repeat 2 read edu 4 $INVERSE' > $TOUCH/ctl"
	done
	oracle_record_events events-hist "$EDU" 0x1000 4
	cpus=$(nproc)
	reads=$EVENTS/mmio_read/hist
	writes=$EVENTS/mmio_write/hist
	assert_eq "reads of the id register" $((5 * cpus)) \
		"$(hist_count "$reads" "phys: $(key EDU)")"
	assert_eq "reads of the inverse register" $((2 * cpus)) \
		"$(hist_count "$reads" "phys: $(key EDU+INVERSE)")"
	assert_eq "writes of 0x11" $((3 * cpus)) \
		"$(hist_count "$writes" "phys: $(key EDU+INVERSE), value: 11")"
	assert_eq "writes of 0x22" "$cpus" \
		"$(hist_count "$writes" "phys: $(key EDU+INVERSE), value: 22")"
	# The histogram and the events it counted agree: the oracle compares
	# the events with what reached the device.
	assert_eq "id register reads in the events" $((5 * cpus)) \
		"$(event_accesses | grep -c "^R 4 $EDU ")"
}

@test "events: two instances with different filters each get exactly their share" {
	ids=$(new_instance ids)
	inverse=$(new_instance inverse)
	echo "phys == $EDU" > "$ids/events/mmiotrace/mmio_read/filter"
	echo "phys == $(hex EDU+INVERSE)" > "$inverse/events/mmiotrace/mmio_read/filter"
	echo 1 > "$ids/events/mmiotrace/mmio_read/enable"
	echo 1 > "$inverse/events/mmiotrace/mmio_read/enable"
	echo 1 > "$inverse/events/mmiotrace/mmio_write/enable"
	touch_dev repeat 7 read edu 4 "$ID_REG"
	writes_and_reads 3
	touch_dev repeat 2 read edu 4 "$ID_REG"
	assert_eq "ids' events" 9 "$(event_accesses "$ids/trace" | grep -c "^R 4 $EDU 0x10000ed$")"
	assert_eq "ids' other events" 0 "$(event_accesses "$ids/trace" | grep -vc "^R 4 $EDU ")"
	assert_eq "inverse's events" "W 4 $(hex EDU+INVERSE) 0x1
R 4 $(hex EDU+INVERSE) 0xfffffffe
W 4 $(hex EDU+INVERSE) 0x2
R 4 $(hex EDU+INVERSE) 0xfffffffd
W 4 $(hex EDU+INVERSE) 0x3
R 4 $(hex EDU+INVERSE) 0xfffffffc" "$(event_accesses "$inverse/trace")"
}

@test "events: trace-cmd records the events and reports the same accesses as the tracer" {
	tracer_on
	trace-cmd record -B tc -e mmiotrace -o "$BATS_TEST_TMPDIR/trace.dat" \
		sh -c "echo 'read edu 4 $ID_REG' > $TOUCH/ctl
			echo 'write edu 4 $INVERSE 0x55' > $TOUCH/ctl
			echo 'read edu 4 $INVERSE' > $TOUCH/ctl" > "$BATS_TEST_TMPDIR/record.log" 2>&1 ||
		{ cat "$BATS_TEST_TMPDIR/record.log"; false; }
	trace-cmd report -i "$BATS_TEST_TMPDIR/trace.dat" > "$BATS_TEST_TMPDIR/report" 2>&1
	assert_eq "accesses" "R 4 $EDU 0x10000ed
W 4 $(hex EDU+INVERSE) 0x55
R 4 $(hex EDU+INVERSE) 0xffffffaa" "$(event_accesses "$BATS_TEST_TMPDIR/report")"
	assert_eq "the tracer's" "$(tracer_accesses)" "$(event_accesses "$BATS_TEST_TMPDIR/report")"
}

# perf lets any user count its own hits of a tracepoint (exclude_kernel)
# at perf_event_paranoid 2 and 1: a consumer of these events would start
# tracing with root's range set and put root's staged override in force.
@test "events: a user without privilege may not open a perf event of them, at perf_event_paranoid 2 and 1" {
	paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
	printf '%s\n' "$EDU 4 = 0xdeadbeef" > "$MMIOTRACE/overrides"
	for event in mmio_read mmio_write mmio_unknown mmio_map mmio_unmap pio_read pio_write; do
		for level in 2 1; do
			echo "$level" > /proc/sys/kernel/perf_event_paranoid
			run as_nobody "perfopen $(cat "$EVENTS/$event/id") 0"
			echo "$paranoid" > /proc/sys/kernel/perf_event_paranoid
			assert_eq "perfopen $event as nobody at $level" "refused EPERM" "$output"
			assert_stat armed_bytes 0
		done
	done
	touch_dev read edu 4 "$ID_REG"
	assert_value 0x10000ed
	assert_eq "overrides" "$EDU 4 = 0xdeadbeef 0xffffffff" "$(cat "$MMIOTRACE/overrides")"
}

@test "events: root's perf event of mmio_read traces while it is open, and its override is in force" {
	printf '%s\n' "$EDU 4 = 0xdeadbeef count 1" > "$MMIOTRACE/overrides"
	perfopen "$(cat "$EVENTS/mmio_read/id")" 30 > "$BATS_TEST_TMPDIR/perf" 3>&- &
	perf_pid=$!
	for i in $(seq 100); do
		grep -q opened "$BATS_TEST_TMPDIR/perf" && break
		sleep 0.05
	done
	assert_stat armed_bytes 4096
	touch_dev read edu 4 "$ID_REG"
	assert_value 0xdeadbeef
	kill "$perf_pid"
	wait "$perf_pid" || true
	assert_stat armed_bytes 0
}
