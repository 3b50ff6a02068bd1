#!/usr/bin/env bats
# Unmapping: UNMAP carries the MAP's id; nothing of a mapping is logged
# after it; removing a live mapping's range stops its accesses, not its UNMAP.

load helpers

@test "unmap: UNMAP has the id of its MAP, a new mapping a new id" {
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	touch_dev unmap edu
	touch_dev map edu
	touch_dev read edu 4 0x0
	touch_dev unmap edu
	run trace_events
	first=$(echo "${lines[0]}" | cut -d' ' -f2)
	second=$(echo "${lines[3]}" | cut -d' ' -f2)
	[ "$second" -gt "$first" ]
	virt1=$(echo "${lines[0]}" | cut -d' ' -f4)
	virt2=$(echo "${lines[3]}" | cut -d' ' -f4)
	assert_events "MAP $first $EDU $virt1 0x1000 0x0 0
R 4 $first $EDU 0x10000ed 0x0 0
UNMAP $first 0x0 0
MAP $second $EDU $virt2 0x1000 0x0 0
R 4 $second $EDU 0x10000ed 0x0 0
UNMAP $second 0x0 0"
	assert_stat armed_bytes 0
}

@test "unmap: removing the range of a live mapping stops R/W but keeps UNMAP" {
	set_ranges "$EDU 4k"
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	add_ranges "!$EDU 4k"
	# The set is empty now, which means "trace everything": keep one
	# unrelated range so that the mapping stays outside.
	set_ranges "0x1000 4k"
	touch_dev read edu 4 0x0
	touch_dev write edu 4 0x4 0x9
	touch_dev unmap edu
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0
UNMAP $ID 0x0 0"
}

@test "unmap: disabling purges live mappings and disarms their pages" {
	tracer_on
	touch_dev map edu
	touch_dev map vga
	assert_stat armed_bytes 8192
	tracer_off
	assert_stat armed_bytes 0
	dmesg | grep -q 'purging non-iounmapped trace'
}

@test "unmap: iounmap() through a pointer into the first page ends the mapping's tracing" {
	set_ranges "$EDU 4k"
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	read_map "$EDU"
	dmesg_mark
	touch_dev unmap edu 0x10
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0
UNMAP $ID 0x0 0"
	assert_stat armed_bytes 0
	[ -z "$(mapping_id "$EDU")" ]
	# A range over the same address later finds nothing left of it.
	add_ranges "$EDU 8k"
	touch_dev map edu
	assert_edu_read_traced
	assert_dmesg_clean
}

@test "unmap: a mapping unmapped through an inner pointer before tracing is not armed" {
	touch_dev map edu
	touch_dev unmap edu 0x10
	dmesg_mark
	set_ranges "$EDU 4k"
	tracer_on
	assert_stat armed_bytes 0
	assert_stat maps_traced 0
	assert_dmesg_clean
}

# A GPU driver's shrinker may unmap I/O memory from direct reclaim, and
# iounmap() takes mapping_mutex: nothing under it may allocate with a
# reclaim that does I/O or enters a file system, or that shrinker waits
# for its own task. Lockdep cannot see it (iounmap() takes the mutex in an
# SRCU read section): the test module's reclaim_watch counts the calls of
# kmmio_arm(), which allocates under mapping_mutex, made where such a
# reclaim could run. Then an iounmap() of the traced mapping.
@test "unmap: nothing under mmiotrace's locks allocates with a reclaim that may iounmap()" {
	set_ranges "$EDU 4k"
	tracer_on
	touch_dev map edu
	touch_dev map vga
	touch_dev reclaim_watch on
	add_ranges "$VGA 4k"
	touch_dev unmap vga
	touch_dev map vga
	touch_dev reclaim_watch off
	# Two calls: the ranges write's, for the mapping made before, and the
	# new mapping's, from ioremap(); none where reclaim may do I/O.
	assert_value 0x200000000
	touch_dev read edu 4 0x0
	touch_dev unmap edu
	read_map "$EDU"
	assert_eq "edu's events" "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0
UNMAP $ID 0x0 0" "$(trace_events | awk -v id="$ID" '($1 == "R" ? $3 : $2) == id')"
	assert_stat armed_bytes 4096
}
