#!/usr/bin/env bats
# The slow tier of hugepages.bats (make check, not make check-quick): the
# range set rewritten round after round while another task reads the huge
# mapping.

load ../helpers

setup() {
	mmio_setup
	IVSHMEM=$(ivshmem_bar2)
}

# hammer TARGET OFFSET...: read each offset of TARGET in a loop until killed.
hammer() {
	local target=$1 offset
	shift
	while true; do
		for offset in "$@"; do
			echo "read $target 4 $offset" > "$TOUCH/ctl"
		done
	done
}

@test "hugepages: ranges added and removed while the 16M mapping is in use" {
	map_whole vga 0x1000000 pmd
	touch_dev write vga 4 0x400000 0x5eed0001
	touch_dev write vga 4 0xa00000 0x5eed0002
	dmesg_mark
	tracer_on
	hammer vga 0x400000 0xa00000 0x100 &
	pid=$!
	for round in $(seq 1 15); do
		set_ranges "$(hex VGA+0x400000) 4"
		add_ranges "$(hex VGA+0xa00000) 16"
		add_ranges "!$(hex VGA+0x400000) 4"
		add_ranges "$(hex VGA+0x300000) 2M"
	done
	kill "$pid"
	wait "$pid" || true
	assert_ranges "$(hex VGA+0x300000) 0x200000
$(hex VGA+0xa00000) 0x10"
	# 0x300000-0x500000 spans two 2M pages, 0xa00000 one more.
	assert_stat armed_leaves 3
	: > "$TRACING/trace"
	touch_dev read vga 4 0x400000
	touch_dev read vga 4 0xa00000
	touch_dev read vga 4 0x100
	# The clear logs the MAP line again, before the first access.
	read_map "$VGA"
	assert_events "MAP $ID $VGA $VIRT 0x1000000 0x0 0
R 4 $ID $(hex VGA+0x400000) 0x5eed0001 0x0 0
R 4 $ID $(hex VGA+0xa00000) 0x5eed0002 0x0 0"
	tracer_off
	assert_stat armed_bytes 0
	assert_page_tables_restored 0x1000000
	touch_dev read vga 4 0xa00000
	assert_value 0x5eed0002
	assert_dmesg_clean
}

@test "hugepages: ranges added and removed while the 1G mapping is in use" {
	map_whole ivshmem 0x40000000 pud
	touch_dev write ivshmem 4 0x1000 0x600d0001
	dmesg_mark
	tracer_on
	hammer ivshmem 0x1000 0x30000000 &
	pid=$!
	for round in $(seq 1 15); do
		set_ranges "$(hex IVSHMEM+0x1000) 4"
		add_ranges "!$(hex IVSHMEM+0x1000) 4"
		set_ranges "$(hex IVSHMEM+0x1000) 4k"
	done
	kill "$pid"
	wait "$pid" || true
	assert_stat armed_leaves 1
	: > "$TRACING/trace"
	touch_dev read ivshmem 4 0x1000
	touch_dev read ivshmem 4 0x30000000
	read_map "$IVSHMEM"
	assert_events "MAP $ID $IVSHMEM $VIRT 0x40000000 0x0 0
R 4 $ID $(hex IVSHMEM+0x1000) 0x600d0001 0x0 0"
	tracer_off
	assert_stat armed_bytes 0
	assert_page_tables_restored 0x40000000
	assert_dmesg_clean
}
