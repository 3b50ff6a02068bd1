#!/usr/bin/env bats
# Arming at scale: a 256 MiB window of ivshmem's BAR mapped with 4k pages
# (it starts 4k into the BAR, so ioremap() can use no 2M page) is 65536
# page-table leaves, armed and disarmed without a lockup or stall warning.

load helpers

setup() {
	mmio_setup
}

WINDOW=0x10000000

@test "scale: 256 MiB of 4k leaves arm and disarm, no lockup or stall" {
	IVSHMEM=$(ivshmem_bar2)
	touch_dev map ivshmem 0x1000 "$WINDOW"
	virt=$(touch_virt ivshmem)
	assert_eq "page level" pte "$(page_level "$virt")"
	assert_eq "page level" pte "$(page_level "$((virt + WINDOW - 0x1000))")"
	before=$(page_entries "$virt" "$((virt + WINDOW))")
	set_ranges "$(hex IVSHMEM+0x1000) $WINDOW"
	dmesg_mark
	start=$EPOCHREALTIME
	tracer_on
	armed=$EPOCHREALTIME
	assert_stat armed_leaves 65536
	assert_stat armed_bytes "$((WINDOW))"
	touch_dev write ivshmem 4 0x0 0x5ca1ab1e
	touch_dev read ivshmem 4 "$((WINDOW - 4))"
	value=$(touch_value)
	read_map "$(hex IVSHMEM+0x1000)"
	assert_events "MAP $ID $(hex IVSHMEM+0x1000) $VIRT $(hex WINDOW) 0x0 0
W 4 $ID $(hex IVSHMEM+0x1000) 0x5ca1ab1e 0x0 0
R 4 $ID $(hex IVSHMEM+0x1000+WINDOW-4) $value 0x0 0"
	start_off=$EPOCHREALTIME
	tracer_off
	end=$EPOCHREALTIME
	assert_stat armed_bytes 0
	assert_eq "page-table entries" "$before" "$(page_entries "$virt" "$((virt + WINDOW))")"
	assert_dmesg_clean
	echo "# 65536 leaves: armed in $(( (${armed/./} - ${start/./}) / 1000 )) ms," \
		"disarmed in $(( (${end/./} - ${start_off/./}) / 1000 )) ms" >&3
}
