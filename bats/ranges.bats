#!/usr/bin/env bats
# The physical range set: ">" replaces, ">>" adds, "!" removes; overlapping
# and adjacent ranges merge; reads print what a write accepts; changes
# apply to live mappings while tracing.

load helpers

ranges() {
	cat "$MMIOTRACE/ranges"
}

@test "ranges: only the edu BAR is traced while the VGA BAR is used too" {
	set_ranges "$EDU 1M"
	tracer_on
	touch_dev map edu
	touch_dev map vga
	touch_dev write vga 4 0x0 0x11223344
	touch_dev read vga 4 0x0
	touch_dev read edu 4 0x0
	touch_dev write edu 4 0x4 0x1
	touch_dev unmap vga
	touch_dev unmap edu
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0
W 4 $ID $(hex EDU+4) 0x1 0x0 0
UNMAP $ID 0x0 0"
	assert_stat maps_seen 2
	assert_stat maps_ignored 1
}

@test "ranges: '>' replaces the set" {
	set_ranges "0x1000 4k"
	set_ranges "0x10000 0x100"
	assert_ranges "0x10000 0x100"
}

@test "ranges: '>>' adds, and the set reads back sorted" {
	set_ranges "0x10000 0x100"
	add_ranges "0x1000 4k"
	assert_ranges "0x1000 0x1000
0x10000 0x100"
}

@test "ranges: overlapping and adjacent ranges merge" {
	set_ranges "0x1000 0x1000
0x2000 0x1000
0x2800 0x1000
0x8000 16"
	add_ranges "0x7ff0 0x10"
	assert_ranges "0x1000 0x2800
0x7ff0 0x20"
}

@test "ranges: '!' removes a span, splitting a range" {
	set_ranges "0x1000 0x3000"
	add_ranges "!0x2000 0x1000"
	assert_ranges "0x1000 0x1000
0x3000 0x1000"
	add_ranges "!0x800 0x1000"
	assert_ranges "0x1800 0x800
0x3000 0x1000"
	add_ranges "!0x0 1G"
	assert_ranges ""
}

@test "ranges: sizes take k/M/G suffixes, decimal and hex" {
	set_ranges "4096 1k
0x100000 1M
0x100000000 2G
0x10000 0x10"
	assert_ranges "0x1000 0x400
0x10000 0x10
0x100000 0x100000
0x100000000 0x80000000"
}

@test "ranges: what a read prints writes back unchanged" {
	set_ranges "0x1000 0x10
0x20000 4k
0xfea00000 1M"
	saved=$(ranges)
	: > "$MMIOTRACE/ranges"
	assert_ranges ""
	printf '%s\n' "$saved" > "$MMIOTRACE/ranges"
	assert_ranges "$saved"
}

@test "ranges: a line split across two writes is put together" {
	exec 5> "$MMIOTRACE/ranges"
	printf '0x10' >&5
	printf '00 4k\n0x8000 ' >&5
	printf '16\n' >&5
	exec 5>&-
	assert_ranges "0x1000 0x1000
0x8000 0x10"
}

@test "ranges: an unterminated last line is applied on close" {
	printf '0x1000 4k' > "$MMIOTRACE/ranges"
	assert_ranges "0x1000 0x1000"
}

@test "ranges: the set holds 1024 ranges, one more is ENOSPC and changes nothing" {
	set_text=$(for i in $(seq 0 1023); do printf '0x%x 1\n' $((i * 2)); done)
	printf '%s\n' "$set_text" > "$MMIOTRACE/ranges"
	[ "$(ranges | wc -l)" = 1024 ]
	assert_write_fails ENOSPC "$MMIOTRACE/ranges" '0x10000 1\n'
	# Removing from inside a range also needs a slot.
	set_ranges "0x0 0x10000"
	set_text=$(for i in $(seq 1 1023); do printf '0x%x 1\n' $((0x10000 + i * 2)); done)
	printf '%s\n' "$set_text" >> "$MMIOTRACE/ranges"
	assert_write_fails ENOSPC "$MMIOTRACE/ranges" '!0x100 1\n'
}

@test "ranges: narrowing and widening while tracing a live mapping" {
	set_ranges "$EDU 1M"
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	assert_stat armed_bytes 4096
	# Narrow to a page the mapping does not cover: it is disarmed.
	set_ranges "$(hex EDU+0x1000) 4k"
	assert_stat armed_bytes 0
	touch_dev read edu 4 0x0
	# Widen again: armed and logged once more.
	add_ranges "$EDU 16"
	assert_stat armed_bytes 4096
	touch_dev write edu 4 0x4 0x5
	touch_dev unmap edu
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0
W 4 $ID $(hex EDU+4) 0x5 0x0 0
UNMAP $ID 0x0 0"
}

@test "ranges: a mapping outside the set at map time is logged once it is added" {
	set_ranges "0x1000 4k"
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	assert_stat armed_bytes 0
	[ -z "$(trace_events)" ]
	add_ranges "$EDU 4k"
	touch_dev read edu 4 0x0
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0"
}

# aliases: the alias areas kmmio performs the traced accesses through.
aliases() {
	grep -c ' map_alias+' /proc/vmallocinfo || true
}

@test "ranges: a mapping that leaves the set gives its alias back" {
	set_ranges "$EDU 4k"
	tracer_on
	touch_dev map edu
	assert_eq "alias areas" 1 "$(aliases)"
	set_ranges "0x1000 4k"
	assert_eq "alias areas" 0 "$(aliases)"
	add_ranges "$EDU 4k"
	assert_eq "alias areas" 1 "$(aliases)"
	assert_edu_read_traced
	tracer_off
	assert_eq "alias areas" 0 "$(aliases)"
}
