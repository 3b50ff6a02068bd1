#!/usr/bin/env bats
# Run by make check in a boot of its own, with
#   mmiotrace.trace_pc=1 mmiotrace.nommiotrace=1 mmiotrace.trace_isa=0
#   mmiotrace.filter_offset=<edu BAR0> mmiotrace.ranges=64k@0xfe000000,oops
#   mmiotrace.ports=2@0x70,4@0x510
# The boot parameters are the defaults of the runtime controls; a range set
# that is not valid is reported and left empty.

load ../helpers

setup() {
	load_touch_module
	EDU=$(edu_bar0)
}

teardown() {
	for target in edu vga isa; do
		echo "unmap $target" > "$TOUCH/ctl" 2>/dev/null || true
	done
	tracer_off
}

@test "bootparams: the runtime files start from the boot parameters" {
	[ "$(cat "$MMIOTRACE/trace_pc")" = 1 ]
	[ "$(cat "$MMIOTRACE/maps_only")" = 1 ]
	[ "$(cat "$MMIOTRACE/trace_isa")" = 0 ]
	assert_ranges ""
}

@test "bootparams: mmiotrace.ports= is the port set at boot, whatever ranges= was" {
	assert_eq "ports" "0x70 0x2
0x510 0x4" "$(cat "$MMIOTRACE/ports")"
	: > "$MMIOTRACE/ports"
}

@test "bootparams: nommiotrace logs maps only, filter_offset keeps other mappings out" {
	tracer_on
	touch_dev map edu
	touch_dev map vga
	touch_dev read edu 4 0x0
	touch_dev read vga 4 0x0
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0"
	assert_stat armed_bytes 0
}

@test "bootparams: the runtime files override the boot defaults" {
	echo 0 > "$MMIOTRACE/maps_only"
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	trace_events | grep -Eq "^R 4 [0-9]+ $EDU 0x10000ed $KERNEL_PC[0-9a-f]+ 0$"
	echo 1 > "$MMIOTRACE/maps_only"
}

@test "bootparams: a malformed mmiotrace.ranges= is logged once and leaves the set empty" {
	[ "$(dmesg | grep -c 'mmiotrace: ranges=')" = 1 ]
	dmesg | grep -qx 'mmiotrace: ranges=64k@0xfe000000,oops: not SIZE@ADDR\[,SIZE@ADDR\.\.\.\], the range set stays empty'
	assert_ranges ""
}
