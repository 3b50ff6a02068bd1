#!/usr/bin/env bats
# maps_only (the nommiotrace parameter): MAP/UNMAP logged, no page armed.

load helpers

@test "maps_only: mappings are logged but no access is" {
	echo 1 > "$MMIOTRACE/maps_only"
	tracer_on
	touch_dev map edu
	assert_stat armed_bytes 0
	touch_dev read edu 4 0x0
	touch_dev unmap edu
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
UNMAP $ID 0x0 0"
	assert_stat read 0
}

@test "maps_only: switching it while tracing disarms and re-arms a live mapping" {
	tracer_on
	touch_dev map edu
	echo 1 > "$MMIOTRACE/maps_only"
	assert_stat armed_bytes 0
	touch_dev read edu 4 0x0
	echo 0 > "$MMIOTRACE/maps_only"
	assert_stat armed_bytes 4096
	touch_dev read edu 4 0x0
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0"
}
