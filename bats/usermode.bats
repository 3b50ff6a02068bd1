#!/usr/bin/env bats
# User mode and the armed kernel pages: a process's fault on an armed
# kernel address, or its own single steps, are none of the tracer's
# business. The process gets what it would get untraced, the kernel log
# says nothing, and every CPU goes on being traced.

load helpers

setup() {
	require_arch x86_64 "user-mode accesses (the tracer arms no user mapping on arm64)"
	mmio_setup
	set_ranges "$EDU 4k"
	tracer_on
	touch_dev map edu
}

# traced_on_every_cpu: a read of edu's id register from each CPU is in
# that CPU's buffer.
traced_on_every_cpu() {
	local cpu
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		: > "$TRACING/per_cpu/cpu$cpu/trace"
		taskset -c "$cpu" sh -c "echo 'read edu 4 0x0' > $TOUCH/ctl"
		assert_eq "reads traced on CPU $cpu" 1 \
			"$(strip_timestamps < "$TRACING/per_cpu/cpu$cpu/trace" |
				grep -c "^R 4 [0-9]* $EDU 0x10000ed 0x0 0$")"
	done
}

@test "usermode: a read of an armed kernel address from user mode is SIGSEGV, on every CPU" {
	virt=$(touch_virt edu)
	dmesg_mark
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		run taskset -c "$cpu" su -s /bin/sh nobody -c "peek $virt"
		assert_eq "peek's status as nobody on CPU $cpu" 139 "$status"
		run taskset -c "$cpu" peek "$virt"
		assert_eq "peek's status as root on CPU $cpu" 139 "$status"
	done
	traced_on_every_cpu
	assert_stat faults_outside 0
	assert_stat stepped 0
	assert_dmesg_clean
}

@test "usermode: single-stepping a process adds nothing to the kernel log" {
	dmesg_mark
	run su -s /bin/sh nobody -c "tfloop 1000"
	assert_eq "tfloop's status" 0 "$status"
	# Hundreds at least (a KASAN kernel under TCG manages about 750 in 1 s).
	[ "$output" -gt 200 ] || { echo "only $output traps"; false; }
	echo "# $output single-step traps in 1 s, as nobody" >&3
	assert_eq "kernel log lines" "$DMESG_LINES" "$(dmesg | wc -l)"
	traced_on_every_cpu
}
