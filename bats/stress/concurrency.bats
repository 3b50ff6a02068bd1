#!/usr/bin/env bats
# make stress: everything at once for STRESS_SECONDS (default 60): two
# writers of ranges, a toggle writer, readers of ranges and stats, enable/
# disable cycles, and the test module mapping, accessing and unmapping,
# among others the whole 16M VGA BAR (2M pages) while the writers change
# which of its bytes are traced.
# No splat (the harness checks the kernel log), no leak of armed pages.

load ../helpers

SECONDS_TOTAL=${STRESS_SECONDS:-60}

until_deadline() { # until_deadline COMMAND...: run COMMAND in a loop
	local deadline=$(( $(date +%s) + SECONDS_TOTAL ))
	while [ "$(date +%s)" -lt "$deadline" ]; do
		"$@" 2>/dev/null || true
	done
}

write_set_a() { printf '%s 16\n0x1000 4k\n' "$EDU" > "$MMIOTRACE/ranges"; }
# In the VGA BAR: a 4-byte range in a 2M page, one across a 2M boundary.
write_set_b() {
	printf '%s 1M\n%s 4\n%s 0x20\n' "$VGA" "$(hex VGA+0x300000)" "$(hex VGA+0x5ffff0)" \
		>> "$MMIOTRACE/ranges"
}
flip_toggles() {
	echo 1 > "$MMIOTRACE/maps_only"; echo 0 > "$MMIOTRACE/trace_isa"
	echo 0 > "$MMIOTRACE/maps_only"; echo 1 > "$MMIOTRACE/trace_isa"
	echo 1 > "$MMIOTRACE/trace_pc"; echo 0 > "$MMIOTRACE/trace_pc"
}
use_big_bar() {
	touch_dev map vga 0 0x1000000
	touch_dev repeat 50 read vga 4 0x300000
	touch_dev repeat 50 read vga 4 0x300010
	touch_dev repeat 50 write vga 4 0x5ffffc 0x1
	touch_dev repeat 50 read vga 4 0x600000
	touch_dev unmap vga
}
read_files() { cat "$MMIOTRACE/ranges" "$MMIOTRACE/stats" > /dev/null; }
cycle_tracer() { tracer_on; sleep 0.2; tracer_off; }
use_devices() {
	touch_dev map edu; touch_dev map isa
	touch_dev repeat 50 read edu 4 0x0
	touch_dev write isa 1 0x0 0x1
	touch_dev unmap edu; touch_dev unmap isa
}

@test "stress: writers, readers, enable/disable and the device, all at once" {
	pids=""
	for job in write_set_a write_set_b flip_toggles read_files cycle_tracer use_devices \
		use_big_bar; do
		until_deadline "$job" &
		pids="$pids $!"
	done
	for pid in $pids; do wait "$pid"; done
	tracer_off
	assert_stat armed_bytes 0
	# Everything still works afterwards; flip_toggles left trace_pc at 0.
	set_ranges "$EDU 4k"
	tracer_on
	touch_dev map edu
	assert_edu_read_traced
}
