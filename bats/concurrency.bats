#!/usr/bin/env bats
# Two writers rewrite the range set while the device is hammered with the
# tracer on: no splat, and the set ends as one of the sets written.

load helpers

writer() { # writer SET ROUNDS
	local round
	for round in $(seq 1 "$2"); do
		printf '%s\n' "$1" > "$MMIOTRACE/ranges"
	done
}

@test "concurrency: two writers and a busy device leave a written set, no splat" {
	set_a="$EDU 16"
	set_b="$(hex EDU+0x20) 4
0x1000 4k"
	dmesg_mark
	tracer_on
	touch_dev map edu
	( for i in $(seq 1 30); do touch_dev repeat 200 read edu 4 0x0; done ) &
	hammer=$!
	writer "$set_a" 60 &
	writer_a=$!
	writer "$set_b" 60 &
	writer_b=$!
	wait "$writer_a"
	wait "$writer_b"
	wait "$hammer"
	final=$(cat "$MMIOTRACE/ranges")
	expect_a=$(printf '%s 0x10' "$EDU")
	expect_b=$(printf '0x1000 0x1000\n%s 0x4' "$(hex EDU+0x20)")
	[ "$final" = "$expect_a" ] || [ "$final" = "$expect_b" ]
	touch_dev unmap edu
	tracer_off
	assert_stat armed_bytes 0
	assert_dmesg_clean
}
