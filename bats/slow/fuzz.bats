#!/usr/bin/env bats
# The generated bad-input corpus (bats/tools/fuzzwrite.c): seeded mutations
# of valid writes to every writable file. make check runs FUZZ_ROUNDS=200
# per file, make stress 2000. A failure names the seed and the round.

load ../helpers

ROUNDS=${FUZZ_ROUNDS:-200}
SEED=${FUZZ_SEED:-20261203}

@test "fuzz: ranges, tracer off" {
	fuzzwrite ranges "$MMIOTRACE/ranges" "$MMIOTRACE/ranges" "$SEED" "$ROUNDS"
}

@test "fuzz: ranges, tracer on with live mappings" {
	tracer_on
	touch_dev map edu
	touch_dev map vga
	fuzzwrite ranges "$MMIOTRACE/ranges" "$MMIOTRACE/ranges" "$((SEED + 1))" "$ROUNDS"
	touch_dev read edu 4 0x0
	assert_value 0x10000ed
}

@test "fuzz: the toggles" {
	for file in trace_pc trace_isa maps_only; do
		fuzzwrite toggle "$MMIOTRACE/$file" "$MMIOTRACE/$file" "$((SEED + 2))" "$ROUNDS"
	done
	[ "$(cat "$MMIOTRACE/trace_pc")$(cat "$MMIOTRACE/trace_isa")$(cat "$MMIOTRACE/maps_only")" = 010 ]
}

@test "fuzz: the marker, tracer on and off" {
	fuzzwrite marker /proc/mmio-marker "$MMIOTRACE/stats" "$((SEED + 3))" "$ROUNDS"
	tracer_on
	fuzzwrite marker /proc/mmio-marker "$MMIOTRACE/stats" "$((SEED + 4))" "$ROUNDS"
	# Every MARK line in the trace is one line of text.
	[ "$(trace_events | grep -c '^MARK ')" = "$(stat_of mark)" ]
}
