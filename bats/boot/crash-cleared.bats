#!/usr/bin/env bats
# The second boot of crash.sh cleared: the instance "flight" was cleared
# after the first boot's accesses, before the reset. It comes back empty
# and records this boot from its start.

load ../helpers

setup() {
	EDU=$(edu_bar0)
}

teardown() {
	[ ! -d "$TOUCH" ] || { echo "unmap edu" > "$TOUCH/ctl"; } 2>/dev/null || true
}

@test "flight cleared: the instance came back empty, tracing on in it" {
	[ "$(cat "$FLIGHT/tracing_on")" = 1 ]
	[ "$(dmesg | grep -c 'Tracing: boot instance flight holds events')" = 0 ]
	[ -z "$(event_accesses "$FLIGHT/trace")" ]
	run mmioctl last-boot
	[ "$status" = 1 ]
	[ "$output" = "mmioctl: instance flight holds no mmiotrace events" ]
}

@test "flight cleared: it records this boot's accesses" {
	load_touch_module
	touch_dev map edu
	touch_dev write edu 4 0x4 0x1234
	touch_dev read edu 4 0x4
	[ "$(event_accesses "$FLIGHT/trace")" = "W 4 $(hex $((EDU + 4))) 0x1234
R 4 $(hex $((EDU + 4))) 0xffffedcb" ]
}
