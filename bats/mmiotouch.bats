#!/usr/bin/env bats
# The test module itself: known values from QEMU's edu device, and its own
# input validation (everything else relies on it).

load helpers

@test "mmiotouch: edu id register reads 0x010000ed" {
	touch_dev map edu
	touch_dev read edu 4 0x0
	assert_value 0x10000ed
}

@test "mmiotouch: edu inverse register returns NOT of the value written" {
	touch_dev map edu
	touch_dev write edu 4 0x4 0x12345678
	touch_dev read edu 4 0x4
	assert_value 0xedcba987
}

@test "mmiotouch: vga framebuffer reads back what was written" {
	touch_dev map vga
	touch_dev write vga 4 0x10 0xcafe1234
	touch_dev read vga 4 0x10
	assert_value 0xcafe1234
	touch_dev write vga 1 0x11 0x55
	touch_dev read vga 4 0x10
	assert_value 0xcafe5534
}

@test "mmiotouch: repeat performs the access and reports a duration" {
	touch_dev map edu
	touch_dev repeat 100 read edu 4 0x0
	assert_value 0x10000ed
	[ "$(cat "$TOUCH/elapsed_ns")" -gt 0 ]
}

@test "mmiotouch: malformed commands fail with EINVAL" {
	touch_dev map edu
	for cmd in "" "bogus" "map" "map nodev" "read edu 3 0x0" "read edu 4 0x2" \
		"read edu 4 0x1000" "read edu 4" "write edu 1 0x0 0x100" "repeat 0 read edu 4 0" \
		"read edu 4 0x0 extra" "map edu 0x0 0x0"; do
		run sh -c "echo '$cmd' > $TOUCH/ctl"
		[ "$status" -ne 0 ]
		[[ "$output" == *"Invalid argument"* ]] || { echo "'$cmd': $output"; false; }
	done
}

@test "mmiotouch: mapping twice is EBUSY, unmapping nothing is ENXIO" {
	touch_dev map edu
	run sh -c "echo 'map edu' > $TOUCH/ctl"
	[[ "$output" == *"busy"* ]]
	touch_dev unmap edu
	run sh -c "echo 'unmap edu' > $TOUCH/ctl"
	[[ "$output" == *"No such device or address"* ]]
}
