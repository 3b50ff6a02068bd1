#!/usr/bin/env bats
# The benchmark loop of "make bench", run once with tiny counts so that it
# cannot rot. No timing is asserted, only that every figure is produced:
# make bench and make stress run it (bats/boots/bench.boot), make check not.

load ../helpers

@test "bench: the loop produces every figure" {
	# The function graph's patching on one CPU: see attr_cpus in guest.sh.
	run env ATTR_ONE_CPU=1 bash /opt/mmio/bench/guest.sh 20 1
	[ "$status" = 0 ]
	for name in off_read off_write off_vga_read fault_off_ns traced_read traced_write \
		user_off_read user_traced_read user_anon_fault_off_ns user_anon_fault_traced_ns \
		user_file_fault_off_ns user_file_fault_traced_ns \
		outside_vga_read fault_traced_ns subpage_outside_read range4_4k_traced_read \
		range4_4k_untraced_read range4_pmd_traced_read range4_pmd_untraced_read \
		events_read events_write filtered_read filtered_write ranges1_read ranges1024_read \
		ranges1_armed_leaves ranges1024_armed_leaves \
		enable_us disable_us enable_live_us disable_live_us events_enable_us \
		events_disable_us events_enable_live_us events_disable_live_us \
		events_nocmd_enable_us events_nocmd_disable_us \
		rewrite_same_ns rewrite_tmpfs_ns remap_off_ns remap_outside_ns remap_floor_ns \
		arm_4k_us disarm_4k_us arm_16m_us disarm_16m_us arm_64m_us disarm_64m_us \
		arm_256m_us disarm_256m_us scale_256m_leaves \
		attr.enable.buffer_reset attr.disable_live.disarm_gp attr.events_enable.patching \
		attr.rewrite_same.wall attr.rewrite_same.edit_ranges attr.access.read.kmmio_handler \
		attr.calls.read.get_kmmio_fault_page attr.access.fault.kmmio_handler \
		attr.access.floor.do_kern_addr_fault attr.access.remap_on.mmiotrace_ioremap_end \
		attr.calls.remap_off.call_rcu \
		events_per_s_1cpu events_per_s_2cpu events_per_s events_until_loss lost_events \
		buffer_size_kb cpus cpus_online_tracing loss_accesses loss_accesses_per_s \
		loss_tracer_lost loss_instance_lost loss_instance_kept loss_instance_buffer_kb; do
		echo "$output" | grep -Eq "^RESULT $name [0-9]+$" || { echo "no $name"; false; }
	done
	# Every traced read is in the buffer or counted as lost.
	echo "$output" | grep -Eq "^RESULT events_unaccounted_1cpu 0$"
	echo "$output" | grep -Eq "^RESULT events_unaccounted_2cpu 0$"
	# The scale windows are 4k leaves, armed one by one (where the kernel
	# has the page-table dump: not the production one).
	if [ -r /sys/kernel/debug/page_tables/kernel ]; then
		echo "$output" | grep -Eq "^RESULT scale_4k_pte [01]$"
		echo "$output" | grep -Eq "^RESULT scale_256m_pte 1$"
	else
		[ -z "$(echo "$output" | grep '^RESULT scale_[0-9a-z]*_pte ')" ]
	fi
	echo "$output" | grep -Eq "^RESULT scale_256m_leaves 65536$"
	echo "$output" | grep -Eq "^RESULT ranges1024_armed_leaves 1024$"
	# The loop leaves nothing behind.
	assert_stat armed_bytes 0
	[ ! -d "$TRACING/instances/bench" ] && [ ! -d "$TRACING/instances/attr" ] &&
		[ ! -d "$TRACING/instances/loss" ] && [ ! -d "$TRACING/instances/nocmd" ]
}
