#!/usr/bin/env bats
# Fault injection, two ways. /proc/self/fail-nth, through onewrite -f N,
# fails the N-th allocation that one write() makes, for N = 1, 2, ... until
# the write gets through without reaching it; each failure must be ENOMEM
# with the old state in force, and the final write must hold.
# fail_function, through onewrite -m, fails every allocation of the writer
# at once.

load helpers

FAILSLAB=/sys/kernel/debug/failslab
FAIL_PAGE_ALLOC=/sys/kernel/debug/fail_page_alloc
FAIL_FUNCTION=/sys/kernel/debug/fail_function

setup() {
	[ -d "$FAILSLAB" ] && [ -d "$FAIL_PAGE_ALLOC" ] && [ -d "$FAIL_FUNCTION" ] ||
		skip "needs CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC and CONFIG_FAIL_FUNCTION"
	mmio_setup
	# GFP_KERNEL allocations too, and no stack dump per injected fault.
	echo N > "$FAILSLAB/ignore-gfp-wait"
	echo N > "$FAIL_PAGE_ALLOC/ignore-gfp-wait"
	echo 0 > "$FAILSLAB/verbose"
	echo 0 > "$FAIL_PAGE_ALLOC/verbose"
}

teardown() {
	[ -d "$FAIL_FUNCTION" ] || return 0
	echo > "$FAIL_FUNCTION/inject"
	echo Y > "$FAILSLAB/ignore-gfp-wait"
	echo Y > "$FAIL_PAGE_ALLOC/ignore-gfp-wait"
	mmio_teardown
}

# each_allocation FILE DATA HANDLER [ARG...]: write DATA to FILE with its
# N-th allocation failing, N = 1, 2, ..., until the write gets through
# without reaching it; HANDLER NTH STATUS OUTPUT ARG... judges each faulted
# write (STATUS 0: it survived its fault). Sets FAULTS to the number of
# allocations the write makes.
each_allocation() {
	local file=$1 data=$2 handler=$3 nth out status survived=0
	shift 3
	for nth in $(seq 1 64); do
		status=0
		out=$(onewrite -f "$nth" "$file" "$data" 2>&1) || status=$?
		if [ "$status" = 3 ]; then
			FAULTS=$((nth - 1))
			echo "# $FAULTS allocations, each failed once; $survived writes survived it" >&3
			return 0
		fi
		[ "$status" = 0 ] && survived=$((survived + 1))
		"$handler" "$nth" "$status" "$out" "$@" || return 1
	done
	echo "$file: the write makes more than 64 allocations"
	return 1
}

# fail_each_allocation FILE DATA OLD NEW RESTORE: each_allocation, where a
# failed write must be ENOMEM with the OLD state holding. A write may also
# absorb its fault (the allocators retry, or the allocation was only a
# preload): then the whole NEW state must hold, and RESTORE undoes it.
fail_each_allocation() {
	each_allocation "$1" "$2" write_outcome "$3" "$4" "$5"
}

write_outcome() { # write_outcome NTH STATUS OUTPUT OLD NEW RESTORE
	local nth=$1 status=$2 out=$3 old=$4 new=$5 restore=$6
	if [ "$status" = 0 ]; then
		$new || { echo "allocation $nth failed, the write went through half done"; return 1; }
		echo "# allocation $nth failed and was absorbed, the write went through" >&3
		$restore
		return 0
	fi
	[ "$(errno_of "$out")" = ENOMEM ] || { echo "allocation $nth: $out"; return 1; }
	$old || { echo "allocation $nth failed and the state changed"; return 1; }
}

restore_set() {
	set_ranges "0x1000 4k"
}

old_set() {
	assert_ranges "0x1000 0x1000" && assert_stat armed_bytes "$ARMED"
}

new_edu_vga_set() {
	assert_ranges "0x1000 0x1000
$VGA 0x1000
$EDU 0x100000" && assert_stat armed_bytes 8192
}

@test "faults: a ranges write while tracing fails with ENOMEM and keeps the old set" {
	set_ranges "0x1000 4k"
	tracer_on
	touch_dev map edu
	touch_dev map vga
	ARMED=0
	fail_each_allocation "$MMIOTRACE/ranges" "$EDU 1M\n$VGA 4k\n" old_set new_edu_vga_set \
		restore_set
	[ "$FAULTS" -ge 4 ]
	new_edu_vga_set
	assert_edu_read_traced
}

restore_maps_only() {
	echo 1 > "$MMIOTRACE/maps_only"
}

old_maps_only() {
	[ "$(cat "$MMIOTRACE/maps_only")" = 1 ] && assert_stat armed_bytes 0
}

new_maps_only() {
	[ "$(cat "$MMIOTRACE/maps_only")" = 0 ] && assert_stat armed_bytes 4096
}

@test "faults: a maps_only switch while tracing fails with ENOMEM and keeps the old value" {
	tracer_on
	touch_dev map edu
	echo 1 > "$MMIOTRACE/maps_only"
	assert_stat armed_bytes 0
	fail_each_allocation "$MMIOTRACE/maps_only" '0\n' old_maps_only new_maps_only \
		restore_maps_only
	[ "$FAULTS" -ge 1 ]
	new_maps_only
}

no_mark() {
	[ -z "$(trace_events)" ]
}

one_mark() {
	assert_events "MARK under pressure"
}

forget_mark() {
	tracer_off
	tracer_on
}

@test "faults: a marker under allocation failure is ENOMEM and logs nothing" {
	tracer_on
	fail_each_allocation /proc/mmio-marker 'under pressure\n' no_mark one_mark forget_mark
	assert_events "MARK under pressure"
}

# many_ranges N: N disjoint one-page ranges as one write for onewrite.
many_ranges() {
	local i
	for i in $(seq 1 "$1"); do
		printf '0x%x 4k\\n' "$((0x10000000 + i * 0x2000))"
	done
}

all_1024_ranges() {
	[ "$(wc -l < "$MMIOTRACE/ranges")" = 1024 ]
}

@test "faults: a write of 1024 ranges (page-sized buffers) fails with ENOMEM and keeps the old set" {
	set_ranges "0x1000 4k"
	ARMED=0
	fail_each_allocation "$MMIOTRACE/ranges" "$(many_ranges 1023)" old_set all_1024_ranges \
		restore_set
	[ "$FAULTS" -ge 2 ]
	all_1024_ranges
}

# enable_outcome STATUS OUTPUT: an enable whose onewrite returned STATUS
# either worked and traces edu, mapped before and in the set, or failed
# with ENOMEM and left the tracer off and nothing armed.
enable_outcome() {
	if [ "$1" = 0 ]; then
		assert_edu_read_traced
		return
	fi
	[ "$(errno_of "$2")" = ENOMEM ] || { echo "enable: $2"; return 1; }
	[ "$(cat "$TRACING/current_tracer")" = nop ] ||
		{ echo "enable failed, yet the tracer is $(cat "$TRACING/current_tracer")"; return 1; }
	assert_stat armed_bytes 0
}

# enable_each_allocation: each_allocation for enabling the tracer; every
# faulted enable must meet enable_outcome, and disabling must leave nothing
# armed. The tracer is off afterwards.
enable_each_allocation() {
	each_allocation "$TRACING/current_tracer" mmiotrace enable_then_disable
	tracer_off
}

enable_then_disable() { # enable_then_disable NTH STATUS OUTPUT
	enable_outcome "$2" "$3" || { echo "allocation $1"; return 1; }
	tracer_off
	assert_stat armed_bytes 0 || { echo "allocation $1: pages left armed"; return 1; }
}

@test "faults: enabling the tracer under each failed allocation works or fails cleanly" {
	# edu is mapped before the tracer is on: enabling arms it.
	touch_dev map edu
	set_ranges "$EDU 4k"
	dmesg_mark
	enable_each_allocation
	[ "$FAULTS" -ge 2 ]
	tracer_on
	assert_edu_read_traced
	assert_dmesg_clean
}

# fail_every_allocation: from now on every slab and page allocation of a
# task marked by onewrite -m fails, by fail_function at the two hooks the
# allocators consult.
fail_every_allocation() {
	echo should_failslab > "$FAIL_FUNCTION/inject"
	echo should_fail_alloc_page > "$FAIL_FUNCTION/inject"
	# retval is a u64: -ENOMEM as the unsigned number (the page hook is
	# boolean and always returns true).
	printf '%u\n' -12 > "$FAIL_FUNCTION/should_failslab/retval"
	echo Y > "$FAIL_FUNCTION/task-filter"
	echo 100 > "$FAIL_FUNCTION/probability"
	echo 1 > "$FAIL_FUNCTION/interval"
	echo -1 > "$FAIL_FUNCTION/times"
	echo 0 > "$FAIL_FUNCTION/verbose"
}

@test "faults: with every allocation failing, ranges, maps_only and the marker refuse cleanly" {
	set_ranges "$EDU 4k"
	tracer_on
	touch_dev map edu
	echo 1 > "$MMIOTRACE/maps_only"
	fail_every_allocation
	WRITE_FLAGS=-m assert_write_fails ENOMEM "$MMIOTRACE/ranges" "$VGA 4k\n"
	WRITE_FLAGS=-m assert_write_fails ENOMEM "$MMIOTRACE/ranges" "$(many_ranges 1023)"
	# Back to tracing arms edu's page.
	WRITE_FLAGS=-m assert_write_fails ENOMEM "$MMIOTRACE/maps_only" '0\n'
	WRITE_FLAGS=-m assert_write_fails ENOMEM /proc/mmio-marker 'no memory\n'
	assert_stat armed_bytes 0
	# Unmarked, the switch goes through.
	echo 0 > "$MMIOTRACE/maps_only"
	assert_stat armed_bytes 4096
	tracer_off
	# Enabling arms edu, mapped and in the set: that fails.
	out=$(onewrite -m "$TRACING/current_tracer" mmiotrace 2>&1) && false
	enable_outcome 1 "$out"
	touch_dev unmap edu
	# The ranges write, unmarked, goes through.
	tracer_on
	touch_dev map edu
	add_ranges "$VGA 4k"
	assert_stat armed_bytes 4096
	assert_edu_read_traced
}
