#!/usr/bin/env bats
# Ranges inside BARs that ioremap() maps with huge pages, mapped whole as a
# driver maps them: the std VGA's 16M BAR0 (2M pages), ivshmem's 1G BAR2
# (1G pages, the CPU has pdpe1gb) and a mapping that mixes 4k and 2M pages.
# Only the selected bytes are logged, exactly; the device reads back what
# was written once the tracer is off; and the page-table entries are what
# they were before tracing: same level, same flags, present.

load helpers

setup() {
	mmio_setup
	IVSHMEM=$(ivshmem_bar2)
}

@test "hugepages: the 16M VGA BAR mapped whole is made of 2M pages" {
	map_whole vga 0x1000000 pmd
	[ "$(page_level "$((BASE + 0xfff000))")" = pmd ]
}

@test "hugepages: a 4-byte range in the middle of a 2M page logs those 4 bytes only" {
	map_whole vga 0x1000000 pmd
	set_ranges "$(hex VGA+0x800000) 4"
	tracer_on
	assert_stat armed_leaves 1
	assert_stat armed_bytes 2097152
	touch_dev write vga 4 0x800000 0xcafe0001
	touch_dev read vga 4 0x800000
	touch_dev write vga 4 0x800004 0xcafe0002
	touch_dev read vga 4 0x800004
	touch_dev write vga 4 0x100 0xcafe0003
	read_map "$VGA"
	assert_events "MAP $ID $VGA $VIRT 0x1000000 0x0 0
W 4 $ID $(hex VGA+0x800000) 0xcafe0001 0x0 0
R 4 $ID $(hex VGA+0x800000) 0xcafe0001 0x0 0"
	# The same 2M page: emulated, not logged. Another one: not armed.
	assert_stat faults_outside 2
	tracer_off
	assert_stat armed_bytes 0
	assert_page_tables_restored 0x1000000
	touch_dev read vga 4 0x800004
	assert_value 0xcafe0002
	touch_dev read vga 4 0x100
	assert_value 0xcafe0003
}

@test "hugepages: a range across a 2M boundary arms both pages and logs both sides" {
	map_whole vga 0x1000000 pmd
	touch_dev write vga 4 0x1ffff8 0x10101010
	set_ranges "$(hex VGA+0x1ffffc) 8"
	tracer_on
	assert_stat armed_leaves 2
	assert_stat armed_bytes 4194304
	touch_dev write vga 4 0x1ffffc 0x11111111
	touch_dev write vga 4 0x200000 0x22222222
	# An access that touches the range is logged, one that does not is not.
	touch_dev read vga 8 0x1ffff8
	touch_dev read vga 4 0x200004
	read_map "$VGA"
	assert_events "MAP $ID $VGA $VIRT 0x1000000 0x0 0
W 4 $ID $(hex VGA+0x1ffffc) 0x11111111 0x0 0
W 4 $ID $(hex VGA+0x200000) 0x22222222 0x0 0
R 8 $ID $(hex VGA+0x1ffff8) 0x1111111110101010 0x0 0"
	tracer_off
	assert_page_tables_restored 0x1000000
	touch_dev read vga 4 0x200000
	assert_value 0x22222222
}

@test "hugepages: a range at the very end of the BAR is traced" {
	map_whole vga 0x1000000 pmd
	set_ranges "$(hex VGA+0xfffffc) 4"
	tracer_on
	touch_dev write vga 4 0xfffffc 0x0badf00d
	touch_dev read vga 2 0xfffffe
	read_map "$VGA"
	assert_events "MAP $ID $VGA $VIRT 0x1000000 0x0 0
W 4 $ID $(hex VGA+0xfffffc) 0xbadf00d 0x0 0
R 2 $ID $(hex VGA+0xfffffe) 0xbad 0x0 0"
	assert_stat armed_bytes 2097152
	tracer_off
	assert_page_tables_restored 0x1000000
}

@test "hugepages: the 1G ivshmem BAR mapped whole is made of a 1G page" {
	map_whole ivshmem 0x40000000 pud
}

@test "hugepages: a 4-byte range in the middle of a 1G page logs those 4 bytes only" {
	map_whole ivshmem 0x40000000 pud
	set_ranges "$(hex IVSHMEM+0x20000000) 4"
	tracer_on
	assert_stat armed_leaves 1
	assert_stat armed_bytes 1073741824
	touch_dev write ivshmem 4 0x20000000 0x1a2b3c4d
	touch_dev read ivshmem 4 0x20000000
	touch_dev write ivshmem 8 0x20000008 0x1122334455667788
	touch_dev read ivshmem 4 0x1000
	read_map "$IVSHMEM"
	assert_events "MAP $ID $IVSHMEM $VIRT 0x40000000 0x0 0
W 4 $ID $(hex IVSHMEM+0x20000000) 0x1a2b3c4d 0x0 0
R 4 $ID $(hex IVSHMEM+0x20000000) 0x1a2b3c4d 0x0 0"
	assert_stat faults_outside 2
	tracer_off
	assert_stat armed_bytes 0
	assert_page_tables_restored 0x40000000
	touch_dev read ivshmem 8 0x20000008
	assert_value 0x1122334455667788
}

@test "hugepages: ranges across a 2M boundary and at the end of a 1G page" {
	map_whole ivshmem 0x40000000 pud
	set_ranges "$(hex IVSHMEM+0x1ffffc) 8
$(hex IVSHMEM+0x3ffffff8) 8"
	tracer_on
	assert_stat armed_leaves 1
	touch_dev write ivshmem 4 0x1ffffc 0x31
	touch_dev write ivshmem 4 0x200000 0x32
	touch_dev write ivshmem 8 0x3ffffff8 0x33
	touch_dev read ivshmem 8 0x3ffffff8
	read_map "$IVSHMEM"
	assert_events "MAP $ID $IVSHMEM $VIRT 0x40000000 0x0 0
W 4 $ID $(hex IVSHMEM+0x1ffffc) 0x31 0x0 0
W 4 $ID $(hex IVSHMEM+0x200000) 0x32 0x0 0
W 8 $ID $(hex IVSHMEM+0x3ffffff8) 0x33 0x0 0
R 8 $ID $(hex IVSHMEM+0x3ffffff8) 0x33 0x0 0"
	tracer_off
	assert_page_tables_restored 0x40000000
}

@test "hugepages: a mapping of 2M pages and a 4k tail arms each page at its level" {
	# VGA+0 .. +0x401000: two 2M pages, then one 4k page.
	touch_dev map vga 0x0 0x401000
	BASE=$(touch_virt vga)
	[ "$(page_level "$BASE")" = pmd ]
	[ "$(page_level "$((BASE + 0x200000))")" = pmd ]
	[ "$(page_level "$((BASE + 0x400000))")" = pte ]
	BEFORE=$(page_entries "$BASE" "$((BASE + 0x401000))")
	set_ranges "$(hex VGA+0x3ffffc) 8"
	tracer_on
	# The second 2M page and the 4k page.
	assert_stat armed_leaves 2
	assert_stat armed_bytes 2101248
	touch_dev write vga 4 0x3ffffc 0x41
	touch_dev write vga 4 0x400000 0x42
	touch_dev write vga 4 0x400004 0x43
	touch_dev write vga 4 0x100 0x44
	read_map "$VGA"
	assert_events "MAP $ID $VGA $VIRT 0x401000 0x0 0
W 4 $ID $(hex VGA+0x3ffffc) 0x41 0x0 0
W 4 $ID $(hex VGA+0x400000) 0x42 0x0 0"
	assert_stat faults_outside 1
	tracer_off
	assert_stat armed_bytes 0
	assert_page_tables_restored 0x401000
	touch_dev read vga 4 0x400004
	assert_value 0x43
}
