#!/usr/bin/env bats
# Precision below a page: a 16-byte range logs accesses to those bytes only.

load helpers

@test "subpage: a 16-byte range logs accesses to those 16 bytes only" {
	set_ranges "$(hex EDU+0x4) 16"
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	touch_dev write edu 4 0x4 0xabcd
	touch_dev read edu 4 0x10
	value=$(touch_value)
	touch_dev read edu 4 0x14
	touch_dev read edu 4 0x20
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
W 4 $ID $(hex EDU+4) 0xabcd 0x0 0
R 4 $ID $(hex EDU+0x10) $value 0x0 0"
	# The page is armed, so the other three accesses were stepped and counted.
	assert_stat armed_bytes 4096
	assert_stat faults_outside 3
}

@test "subpage: only the pages of a mapping that meet the set are armed" {
	set_ranges "$(hex EDU+0x2010) 16"
	tracer_on
	touch_dev map edu 0x0 0x4000
	assert_stat armed_bytes 4096
	touch_dev read edu 4 0x0
	assert_stat faults_outside 0
	touch_dev unmap edu
	assert_stat armed_bytes 0
}
