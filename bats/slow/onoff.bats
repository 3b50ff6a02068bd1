#!/usr/bin/env bats
# The slow tier of onoff.bats (make check, not make check-quick): many
# enable/disable cycles in a row, where onoff.bats turns the tracer on and
# off once per test.

load ../helpers

@test "onoff: 20 enable/disable cycles leave no armed pages and a clean log" {
	dmesg_mark
	for cycle in $(seq 1 20); do
		tracer_on
		touch_dev map edu
		touch_dev read edu 4 0x0
		assert_stat armed_bytes 4096
		# Every other cycle leaves the mapping live for disable to purge.
		if [ $((cycle % 2)) = 0 ]; then
			touch_dev unmap edu
		fi
		tracer_off
		assert_stat armed_bytes 0
		touch_dev unmap edu 2>/dev/null || true
	done
	assert_dmesg_clean
}
