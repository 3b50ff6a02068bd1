#!/usr/bin/env bats
# Malformed writes to every control file: each fails with its errno and
# leaves the state as it was; other users get EACCES.

load helpers

setup() {
	mmio_setup
	set_ranges "0x1000 4k
0x100000 0x10"
}

long_line="0x1000 0x$(printf '0%.0s' $(seq 1 60))1"

BAD_RANGES=(
	'bad\n' '0x1000\n' '0x1000 0\n' '0x1000 4q\n' '0x1000 16q\n' '0x1000 4k extra\n'
	'010 1\n' '0x1000 010\n' '-1 1\n' '0x1000 -1\n' '+1 1\n' '0x1000 +1\n'
	'0xffffffffffffffff 2\n' '0xfffffffffffffff0 0x10\n' '18446744073709551616 1\n'
	'0x1 0xffffffffffffffff\n' '0x1000 17179869184G\n' '0x 1\n' '0x1000 0x\n' '0x1000 k\n'
	'!\n' '!0x1000\n' '! 0x1000 1\n' '0x1000,4k\n' '0x1000 4kk\n' '0x1000 4 k\n'
	'0x2000 4k\nbad\n' '0x2000 4k\n0x3000 0\n' "$long_line\n" '0x1000 4k\0\n' '0x10g0 1\n'
)

@test "badinput: malformed ranges lines are EINVAL and change nothing (>>)" {
	for data in "${BAD_RANGES[@]}"; do
		assert_write_fails EINVAL "$MMIOTRACE/ranges" "$data" ">>"
	done
}

@test "badinput: malformed ranges lines are EINVAL and change nothing (>)" {
	for data in "${BAD_RANGES[@]}"; do
		assert_write_fails EINVAL "$MMIOTRACE/ranges" "$data" ">"
	done
}

@test "badinput: the largest accepted values are accepted" {
	set_ranges "0xfffffffffffffffe 1"
	add_ranges "0x0 0xffffffffffffffff"
	assert_ranges "0x0 0xffffffffffffffff"
	set_ranges "0 1"
	assert_ranges "0x0 0x1"
}

@test "badinput: toggles take exactly 0 or 1" {
	for file in trace_pc trace_isa maps_only; do
		for data in '2\n' '-1\n' '01\n' '1 \n' ' 1\n' 'y\n' 'on\n' '0x1\n' '1\n\n' '10\n' '\n' '1\0'; do
			assert_write_fails EINVAL "$MMIOTRACE/$file" "$data"
		done
	done
	[ "$(cat "$MMIOTRACE/trace_pc")" = 0 ]
	[ "$(cat "$MMIOTRACE/trace_isa")" = 1 ]
	[ "$(cat "$MMIOTRACE/maps_only")" = 0 ]
}

@test "badinput: stats and mappings are read-only" {
	for file in stats mappings; do
		run sh -c "echo 0 > $MMIOTRACE/$file"
		[ "$status" -ne 0 ]
	done
	assert_stat armed_bytes 0
}

@test "badinput: other users get EACCES on every control file" {
	for file in "$MMIOTRACE/ranges" "$MMIOTRACE/overrides" "$MMIOTRACE/trace_pc" "$MMIOTRACE/trace_isa" \
		"$MMIOTRACE/maps_only" "$MMIOTRACE/stats" "$MMIOTRACE/mappings"; do
		run as_nobody "cat $file"
		[ "$status" -ne 0 ]
		[ "$(errno_of "$output")" = EACCES ] || { echo "$file: $output"; false; }
		run as_nobody "echo 1 > $file"
		[ "$(errno_of "$output")" = EACCES ] || { echo "$file: $output"; false; }
	done
	tracer_on
	run as_nobody "echo hi > /proc/mmio-marker"
	[ "$(errno_of "$output")" = EACCES ]
	assert_events ""
	assert_ranges "0x1000 0x1000
0x100000 0x10"
}

# A write that is refused for its size, not its contents, is a failed write
# too: after an O_TRUNC open, the release must not commit the emptied set.
# A write of 0 bytes is no error, and writes nothing.
@test "badinput: an over-64-KiB write to ranges or overrides changes nothing, > or >>; 0 bytes is no error" {
	printf '%s\n' "0x1000 4 = 0x5" > "$MMIOTRACE/overrides"
	huge="$(printf '%070000d' 0)"
	for file in ranges overrides; do
		for mode in ">" ">>"; do
			assert_write_fails EINVAL "$MMIOTRACE/$file" "$huge" "$mode"
		done
		onewrite "$MMIOTRACE/$file" ""
	done
	assert_ranges "0x1000 0x1000
0x100000 0x10"
	assert_eq "overrides" "0x1000 4 = 0x5 0xffffffff" "$(cat "$MMIOTRACE/overrides")"
	# Through ">", nothing written empties the set, as ": > ranges" does.
	onewrite -t "$MMIOTRACE/ranges" ""
	assert_ranges ""
}

# error_log LINES: tracing/error_log without its timestamps.
error_log() {
	sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' "$TRACING/error_log"
}

# A refused write says why and where in tracing/error_log, as ftrace's own
# control files do: the file, the reason, the line with a caret under the
# word at fault.
@test "badinput: a refused line says why and where in tracing/error_log" {
	: > "$TRACING/error_log"
	assert_write_fails EINVAL "$MMIOTRACE/ranges" '0x1000 4k\n0x2000 banana\n'
	assert_write_fails EINVAL "$MMIOTRACE/ranges" '!0x1000\n'
	assert_write_fails EINVAL "$MMIOTRACE/ranges" '0xffffffffffff0000 1M\n'
	assert_write_fails EINVAL "$MMIOTRACE/overrides" '0x1000 3 = 1\n'
	assert_write_fails EINVAL "$MMIOTRACE/overrides" '0x1000 4 = 0x100000000\n'
	assert_write_fails EINVAL "$MMIOTRACE/overrides" '0x1002 4 drop count 3 4\n'
	assert_eq "error_log" "mmiotrace:ranges: error: Not a number: decimal or 0x hex, no sign, no leading 0
  Command: 0x2000 banana
                  ^
mmiotrace:ranges: error: Missing a word
  Command: !0x1000
                  ^
mmiotrace:ranges: error: Ends past 2^64 - 1
  Command: 0xffffffffffff0000 1M
                              ^
mmiotrace:overrides: error: Width not 1, 2, 4 or 8
  Command: 0x1000 3 = 1
                  ^
mmiotrace:overrides: error: Wider than the width
  Command: 0x1000 4 = 0x100000000
                      ^
mmiotrace:overrides: error: Address not a multiple of the width
  Command: 0x1002 4 drop count 3 4
           ^" "$(error_log)"
	: > "$TRACING/error_log"
}
