#!/usr/bin/env bats
# The kernel's own x86 selftests (tools/testing/selftests/x86, the 64-bit
# builds, NAME_64 in the image: see the Makefile) of the paths that tracing
# a user mapping shares with every process: the debug trap and TF
# (mov_ss_trap, single_step_syscall), signal frames and sigreturn
# (sigreturn), syscall entry with bad state (syscall_arg_fault), and the
# I/O permission bitmap and IOPL that a context switch carries (ioperm,
# iopl: kconfig/base.config has CONFIG_X86_IOPL_IOPERM for them). Each
# runs untraced, then with the range set over edu's BAR0 while a barmap
# process on the same CPU reads it in a loop, so that its accesses are
# emulated between the selftest's traps and signals. The selftest must end
# as it did untraced, with the same [OK]/[FAIL]/[SKIP]... lines, and every
# read of the loop must be in the trace.
#
# Not run, and why:
# - ptrace_syscall: its first test is int $0x80 from 64-bit code, a #GP
#   (SIGSEGV) without CONFIG_IA32_EMULATION; upstream builds the 64-bit
#   variant only where the 32-bit one builds.
# - the 32-bit variants: no CONFIG_IA32_EMULATION, and no 32-bit libc on
#   the host to build them.
# What the kernel's configuration leaves out of those run: sigreturn's LDT
# cases (no CONFIG_MODIFY_LDT_SYSCALL: it notes "Failed to create ...
# segment" and skips them); syscall_arg_fault's SYSENTER cases and
# single_step_syscall's SYSENTER one (the TCG CPU refuses SYSENTER in
# 64-bit mode, as AMD's do: SIGILL, which they expect). mov_ss_trap dies
# of SIGSEGV at "MOV SS; SYSCALL" under TCG, untraced too (not the
# tracing): that death, and no other, is accepted untraced, and then the
# traced run must die there as well.

load helpers

setup() {
	require_arch x86_64 "the kernel's x86 selftests"
	mmio_setup
	RES0=$(pci_dev 0x1234 0x11e8)/resource0
}

teardown() {
	local pid
	for pid in $(pidof barmap); do kill -9 "$pid"; done
	tracer_off
	mmio_teardown
}

# verdicts FILE: the selftest's "[TAG] ..." lines.
verdicts() {
	grep '^\[' "$1" || true
}

# run_selftest NAME OUT: NAME_64 on CPU 1, its output in OUT; sets STATUS
# and MS, its run time in milliseconds.
run_selftest() {
	local start=${EPOCHREALTIME/./}
	STATUS=0
	taskset -c 1 "$1_64" > "$2" 2>&1 || STATUS=$?
	MS=$(((${EPOCHREALTIME/./} - start) / 1000))
}

# wait_reads N: until the trace counted N reads of processes (five seconds).
wait_reads() {
	local i
	for i in $(seq 100); do
		[ "$(stat_of user_read)" -ge "$1" ] && return 0
		sleep 0.05
	done
	echo "fewer than $1 user reads traced: $(stat_of user_read)"
	return 1
}

# runs_of PID: the trace lines of process PID without timestamps, each
# run of equal lines as "COUNT LINE" (one pass: the loop's reads are many).
runs_of() {
	awk -v pid="$1" '
		$NF != pid { next }
		{ sub(/ [0-9]+\.[0-9]+ /, " ") }
		$0 != last { if (n) print n, last; last = $0; n = 0 }
		{ n++ }
		END { if (n) print n, last }' "$TRACING/trace"
}

# check_selftest NAME [DEATH]: NAME_64 untraced exits 0, or with DEATH
# after the line DEATH names ("139 [RUN]	MOV SS; SYSCALL"); traced, with
# barmap reading edu's BAR0 in a loop on the same CPU, it ends the same,
# with the same verdict lines, and the trace holds barmap's MAP, each of
# its reads (as many as it counted, some during the selftest) and UNMAP.
check_selftest() {
	local name=$1 death=${2:-} untraced untraced_ms pid barmap polled before after
	run_selftest "$name" "$BATS_TEST_TMPDIR/untraced"
	untraced=$STATUS untraced_ms=$MS
	if [ "$untraced" != 0 ]; then
		assert_eq "$name untraced: status and last line" "$death" \
			"$untraced $(tail -n 1 "$BATS_TEST_TMPDIR/untraced")"
	fi
	set_ranges "$EDU 4k"
	tracer_on
	taskset -c 1 barmap "$RES0" 0 0x1000 tick 0x0 200 > "$BATS_TEST_TMPDIR/barmap" 3>&- &
	barmap=$!
	wait_reads 10
	before=$(stat_of user_read)
	run_selftest "$name" "$BATS_TEST_TMPDIR/traced"
	after=$(stat_of user_read)
	kill -USR1 "$barmap"
	wait "$barmap"
	echo "# $name: untraced $untraced_ms ms, traced $MS ms with $((after - before)) reads of barmap" >&3
	assert_eq "$name: status traced, as untraced" "$untraced" "$STATUS"
	assert_eq "$name: verdict lines traced, as untraced" "$(verdicts "$BATS_TEST_TMPDIR/untraced")" \
		"$(verdicts "$BATS_TEST_TMPDIR/traced")"
	[ "$after" -gt "$before" ] || { echo "no read of barmap while $name ran"; return 1; }
	pid=$(awk '$1 == "pid" { print $2; exit }' "$BATS_TEST_TMPDIR/barmap")
	polled=$(awk '$1 == "polled" { print $2 }' "$BATS_TEST_TMPDIR/barmap")
	runs_of "$pid" > "$BATS_TEST_TMPDIR/runs"
	# The mapping's id and user address, from its MAP line.
	read -r _ _ ID _ VIRT _ < "$BATS_TEST_TMPDIR/runs"
	assert_eq "barmap's trace lines" "1 MAP $ID $EDU $VIRT 0x1000 0x0 $pid
$polled R 4 $ID $EDU 0x10000ed 0x0 $pid
1 UNMAP $ID 0x0 $pid" "$(cat "$BATS_TEST_TMPDIR/runs")"
	assert_stat user_read "$polled"
	assert_stat lost 0
}

@test "x86-selftests: mov_ss_trap ends as untraced while a process's MMIO reads are traced" {
	check_selftest mov_ss_trap "139 [RUN]	MOV SS; SYSCALL"
}

@test "x86-selftests: single_step_syscall passes while a process's MMIO reads are traced" {
	check_selftest single_step_syscall
}

@test "x86-selftests: sigreturn passes while a process's MMIO reads are traced" {
	check_selftest sigreturn
}

@test "x86-selftests: syscall_arg_fault passes while a process's MMIO reads are traced" {
	check_selftest syscall_arg_fault
}

@test "x86-selftests: ioperm passes while a process's MMIO reads are traced" {
	check_selftest ioperm
}

@test "x86-selftests: iopl passes while a process's MMIO reads are traced" {
	check_selftest iopl
}
