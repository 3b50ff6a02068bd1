#!/usr/bin/env bats
# The benchmark loop of "make bench", run once with tiny counts so that it
# cannot rot. No timing is asserted, only that every figure is produced.

load helpers

@test "bench: the loop produces every figure" {
	run bash /opt/mmio/bench/guest.sh 20 1
	[ "$status" = 0 ]
	for name in off_read off_write off_vga_read traced_read traced_write outside_vga_read \
		subpage_outside_read range4_4k_traced_read range4_4k_untraced_read \
		range4_pmd_traced_read range4_pmd_untraced_read remap_off_ns remap_outside_ns \
		events_per_s_1cpu events_per_s_2cpu ranges1_read ranges16_read ranges256_read ranges1024_read \
		rewrite_ranges_us enable_us disable_us events_per_s events_until_loss lost_events \
		buffer_size_kb; do
		echo "$output" | grep -Eq "^RESULT $name [0-9]+$" || { echo "no $name"; false; }
	done
	# Every traced read is in the buffer or counted as lost.
	echo "$output" | grep -Eq "^RESULT events_unaccounted_1cpu 0$"
	echo "$output" | grep -Eq "^RESULT events_unaccounted_2cpu 0$"
	assert_stat armed_bytes 0
}
