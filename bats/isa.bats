#!/usr/bin/env bats
# The ISA hole 0xa0000-0xfffff (legacy VGA memory with -vga std): traced by
# default, as Linux 6.12 does; trace_isa=0 leaves such mappings alone.

load helpers

setup() {
	require_arch x86_64 "the ISA hole"
	mmio_setup
}

@test "isa: on by default, a mapping at 0xa0000 is traced" {
	[ "$(cat "$MMIOTRACE/trace_isa")" = 1 ]
	tracer_on
	touch_dev map isa
	touch_dev write isa 1 0x10 0x5a
	touch_dev read isa 4 0x0
	value=$(touch_value)
	read_map 0xa0000
	assert_events "MAP $ID 0xa0000 $VIRT 0x1000 0x0 0
W 1 $ID 0xa0010 0x5a 0x0 0
R 4 $ID 0xa0000 $value 0x0 0"
}

@test "isa: off, a mapping at 0xa0000 is neither logged nor armed" {
	echo 0 > "$MMIOTRACE/trace_isa"
	tracer_on
	touch_dev map isa
	touch_dev read isa 4 0x0
	touch_dev unmap isa
	assert_events ""
	assert_stat maps_ignored 1
	assert_stat armed_bytes 0
}

@test "isa: switching it off while tracing disarms a live ISA mapping" {
	tracer_on
	touch_dev map isa
	assert_stat armed_bytes 4096
	echo 0 > "$MMIOTRACE/trace_isa"
	assert_stat armed_bytes 0
	touch_dev read isa 4 0x0
	touch_dev unmap isa
	read_map 0xa0000
	assert_events "MAP $ID 0xa0000 $VIRT 0x1000 0x0 0
UNMAP $ID 0x0 0"
}

@test "isa: off does not affect mappings outside the hole" {
	echo 0 > "$MMIOTRACE/trace_isa"
	tracer_on
	touch_dev map edu
	assert_edu_read_traced
}
