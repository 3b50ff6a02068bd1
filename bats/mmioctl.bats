#!/usr/bin/env bats
# mmioctl against the real patched kernel: every command, and the exit
# status and message of each error class.

load helpers

teardown() {
	[ -z "${RECORDER:-}" ] || kill "$RECORDER" 2>/dev/null || true
	mmio_teardown
}

edu_bdf() {
	local dev
	for dev in /sys/bus/pci/devices/*; do
		if [ "$(cat "$dev/device")" = 0x11e8 ]; then
			basename "$dev"
			return 0
		fi
	done
	return 1
}

@test "mmioctl: add, del, list and clear edit the range set" {
	mmioctl add 0xe0000000 16k 0x1000 1
	run mmioctl list
	[ "$status" = 0 ]
	[ "$output" = "0x1000 0x1
0xe0000000 0x4000" ]
	mmioctl del 0xe0001000 4k
	assert_ranges "0x1000 0x1
0xe0000000 0x1000
0xe0002000 0x2000"
	mmioctl clear
	assert_ranges ""
}

@test "mmioctl: add-pci adds the edu BAR" {
	mmioctl add-pci "$(edu_bdf)"
	assert_ranges "$EDU 0x100000"
	mmioctl clear
	mmioctl add-pci "$(edu_bdf)" 0
	assert_ranges "$EDU 0x100000"
}

@test "mmioctl: on, mark and off give a trace of the edu accesses" {
	mmioctl add-pci "$(edu_bdf)"
	mmioctl on
	[ "$(cat "$TRACING/current_tracer")" = mmiotrace ]
	mmioctl mark before map
	touch_dev map edu
	touch_dev read edu 4 0x0
	mmioctl mark after read
	read_map "$EDU"
	assert_events "MARK before map
MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0
MARK after read"
	touch_dev unmap edu
	mmioctl off
	[ "$(cat "$TRACING/current_tracer")" = nop ]
}

@test "mmioctl: pc, isa and maps-only set their files" {
	mmioctl pc on
	mmioctl isa off
	mmioctl maps-only on
	[ "$(cat "$MMIOTRACE/trace_pc")$(cat "$MMIOTRACE/trace_isa")$(cat "$MMIOTRACE/maps_only")" = 101 ]
	mmioctl pc off
	mmioctl isa on
	mmioctl maps-only off
	[ "$(cat "$MMIOTRACE/trace_pc")$(cat "$MMIOTRACE/trace_isa")$(cat "$MMIOTRACE/maps_only")" = 010 ]
}

@test "mmioctl: status shows tracer, ranges, toggles and stats" {
	mmioctl add 0x1000 4k
	mmioctl on
	run mmioctl status
	[ "$status" = 0 ]
	[[ "$output" == *"tracer: mmiotrace (mmiotrace on)"* ]]
	[[ "$output" == *"ranges:
  0x1000 0x1000"* ]]
	[[ "$output" == *"trace_isa: 1"* ]]
	[[ "$output" == *"  armed_bytes 0"* ]]
	echo "$output" | grep -Eq '^buffer_size_kb: [0-9]+$'
}

@test "mmioctl: record streams the accesses and stops cleanly on SIGINT" {
	mmioctl add-pci "$(edu_bdf)"
	mmioctl on
	mmioctl record -o "$BATS_TEST_TMPDIR/trace.txt" 2> "$BATS_TEST_TMPDIR/record.err" &
	RECORDER=$!
	touch_dev map edu
	touch_dev write edu 4 0x4 0x1234
	touch_dev read edu 4 0x4
	touch_dev unmap edu
	sleep 1
	kill -INT "$RECORDER"
	wait "$RECORDER"
	RECORDER=
	id=$(awk '$1 == "MAP" { print $3 }' "$BATS_TEST_TMPDIR/trace.txt")
	grep -qx "VERSION 20070824" "$BATS_TEST_TMPDIR/trace.txt"
	grep -Eqx "W 4 [0-9.]+ $id $(hex EDU+4) 0x1234 0x0 0" "$BATS_TEST_TMPDIR/trace.txt"
	grep -Eqx "R 4 [0-9.]+ $id $(hex EDU+4) 0xffffedcb 0x0 0" "$BATS_TEST_TMPDIR/trace.txt"
	grep -Eqx "UNMAP [0-9.]+ $id 0x0 0" "$BATS_TEST_TMPDIR/trace.txt"
	grep -qx "mmioctl: recorded [0-9]* bytes, 0 events lost" "$BATS_TEST_TMPDIR/record.err"
}

@test "mmioctl: usage errors exit 2 and name the argument" {
	run mmioctl add 0x1000 16q
	[ "$status" = 2 ]
	[[ "$output" == "mmioctl: invalid size '16q': expected bytes, 0x hex, or a k/M/G suffix"* ]]
	run mmioctl add-pci 00:3.0
	[ "$status" = 2 ]
	[[ "$output" == *"invalid PCI address '00:3.0'"* ]]
	run mmioctl pc maybe
	[ "$status" = 2 ]
	run mmioctl mark "$(printf 'a\nb')"
	[ "$status" = 2 ]
	assert_ranges ""
}

@test "mmioctl: kernel refusals exit 1 with the path and strerror" {
	run mmioctl mark "tracer is off"
	[ "$status" = 1 ]
	[ "$output" = "mmioctl: /proc/mmio-marker: No such device" ]
	set_text=$(for i in $(seq 0 1023); do printf '0x%x 1\n' $((i * 2)); done)
	printf '%s\n' "$set_text" > "$MMIOTRACE/ranges"
	run mmioctl add 0x100000 1
	[ "$status" = 1 ]
	[ "$output" = "mmioctl: $MMIOTRACE/ranges: No space left on device" ]
	run mmioctl add-pci 00:1f.0
	[ "$status" = 1 ]
	[[ "$output" == "mmioctl: no PCI device 0000:00:1f.0"* ]]
}

@test "mmioctl: a non-root user is refused with EACCES" {
	run as_nobody "mmioctl add 0x1000 4k"
	[ "$status" = 1 ]
	[[ "$output" == *"Permission denied"* ]]
	assert_ranges ""
}
