#!/usr/bin/env bats
# A machine check that a device raises while a traced process reads it
# (make check's mce boot): the host stops the kernel at the read that
# kmmio makes for the process's MOV and injects a machine check there
# through QEMU (harness/inject-mce.sh), once, at the first such read.
# Untraced, the process's own access would take it in user mode: SIGBUS,
# and the kernel goes on. Traced, the same, and nothing is reported for
# the read that did not complete.

load ../helpers

setup() {
	require_arch x86_64 "x86 machine checks"
	mmio_setup
	RES0=$(pci_dev 0x1234 0x11e8)/resource0
}

# mce_lines: the kernel's report of the machine check, once it is there
# (the report is printed from a work item): its CPU and RIP lines only.
mce_lines() {
	local i
	for i in $(seq 50); do
		dmesg | grep -q 'mce: \[Hardware Error\]: RIP' && break
		sleep 0.1
	done
	dmesg | sed -n -E 's/^\[ *[0-9.]+\] //; /Hardware Error\]: (CPU|RIP)/p'
}

@test "mce: a machine check in a traced process's read gives it SIGBUS; the kernel goes on" {
	set_ranges "$EDU 4k"
	tracer_on
	run taskset -c 1 barmap "$RES0" 0 0x1000 r4 0x0 r4 0x0
	assert_eq "status (128 + SIGBUS)" 135 "$status"
	pid=$(echo "$output" | awk '$1 == "pid" { print $2 }')
	assert_eq "output" "pid $pid" "$output"
	read_map "$EDU"
	# Its MAP and UNMAP; no R line for the read that took the machine check.
	assert_eq "events" "MAP $ID $EDU $VIRT 0x1000 0x0 $pid
UNMAP $ID 0x0 $pid" "$(trace_events | awk -v pid="$pid" '$NF == pid')"
	# Taken in kernel mode, at the read, and recovered from there.
	run mce_lines
	assert_eq "lines" 2 "${#lines[@]}"
	assert_eq "machine check" "mce: [Hardware Error]: CPU 1: Machine Check Exception: 7 Bank 1: bd80000000000134" "${lines[0]}"
	[[ ${lines[1]} =~ ^"mce: [Hardware Error]: RIP 10:<ffffffff"[0-9a-f]{8}"> {kmmio_alias_read_mc+0x"[0-9a-f]+/0x[0-9a-f]+"}"$ ]] ||
		{ echo "not at kmmio_alias_read_mc: ${lines[1]}"; return 1; }
	# The page is still traced, and the next process reads edu as ever.
	run taskset -c 1 barmap "$RES0" 0 0x1000 r4 0x0
	assert_eq "status" 0 "$status"
	pid=$(echo "$output" | awk '$1 == "pid" { print $2 }')
	assert_eq "output" "pid $pid
r4 0x0 = 0x10000ed" "$output"
	read_map "$EDU"
	assert_eq "events" "MAP $ID $EDU $VIRT 0x1000 0x0 $pid
R 4 $ID $EDU 0x10000ed 0x0 $pid
UNMAP $ID 0x0 $pid" "$(trace_events | awk -v pid="$pid" '$NF == pid')"
}
