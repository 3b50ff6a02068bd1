#!/usr/bin/env bats
# PC recording: 0x0 when off, the faulting instruction when on.

load helpers

pc_of_read() {
	trace_events | awk '$1 == "R" { print $6 }'
}

@test "trace_pc: off by default, the PC column is 0x0" {
	[ "$(cat "$MMIOTRACE/trace_pc")" = 0 ]
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	[ "$(pc_of_read)" = 0x0 ]
}

@test "trace_pc: on, the PC lies inside the test module's text" {
	echo 1 > "$MMIOTRACE/trace_pc"
	[ "$(cat "$MMIOTRACE/trace_pc")" = 1 ]
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	pc=$(pc_of_read)
	text=$(cat /sys/module/mmiotouch/sections/.text)
	size=$(cat /sys/module/mmiotouch/coresize)
	echo "pc $pc, module text $text, core size $size"
	[ $((pc)) -ge $((text)) ]
	[ $((pc - text)) -lt $((size)) ]
}

@test "trace_pc: switching it while tracing applies to the next access" {
	tracer_on
	touch_dev map edu
	touch_dev read edu 4 0x0
	echo 1 > "$MMIOTRACE/trace_pc"
	touch_dev read edu 4 0x0
	echo 0 > "$MMIOTRACE/trace_pc"
	touch_dev read edu 4 0x0
	run pc_of_read
	[ "${lines[0]}" = 0x0 ]
	[ "${lines[1]}" != 0x0 ]
	[ "${lines[2]}" = 0x0 ]
}
