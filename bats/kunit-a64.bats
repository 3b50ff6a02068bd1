#!/usr/bin/env bats
# arm64: which of the tracer's two paths performs an access. A data abort's
# syndrome (ESR ISV) describes a load or store of one register without
# writeback only to a kernel at EL2 under QEMU's TCG; at EL1 every access
# is decoded. The KUnit tests (arch/arm64/mm/kmmio-insn-test.c, run at
# boot) cover both paths for every form whatever the boot's level; the
# stats file's syndrome counter says which path the boot's own faults
# took.

load helpers

setup() {
	require_arch aarch64 "the A64 emulation's paths"
	mmio_setup
}

# The suite's KTAP, as KUnit's debugfs file keeps it.
KUNIT_RESULTS=/sys/kernel/debug/kunit/kmmio-arm64/results

@test "kunit-a64: every case of the A64 emulation's KUnit suite ran at boot and passed" {
	local res
	[ -r "$KUNIT_RESULTS" ] || { echo "no $KUNIT_RESULTS: CONFIG_MMIOTRACE_KUNIT_TEST off?"; false; }
	res=$(sed 's/^ *//' "$KUNIT_RESULTS")
	run ! grep -q '^not ok' <<< "$res"
	# One summary per parameterised case: as many as the tables hold.
	grep -qx '# kmmio_test_decoded: pass:38 fail:0 skip:0 total:38' <<< "$res"
	grep -qx '# kmmio_test_syndrome: pass:13 fail:0 skip:0 total:13' <<< "$res"
	grep -qx '# kmmio_test_stepped: pass:27 fail:0 skip:0 total:27' <<< "$res"
	assert_eq "cases passed" 6 "$(grep -c '^ok [0-9]* kmmio_test_' <<< "$res")"
	grep -qx '# kmmio-arm64: pass:6 fail:0 skip:0 total:6' <<< "$res"
}

@test "kunit-a64: readl() and writel() are performed from the syndrome at EL2 and decoded at EL1" {
	[ -n "${MMIO_EL:-}" ] || skip "the boot names no exception level (MMIO_EL)"
	tracer_on
	touch_dev map cmb 0x0 0x1000
	touch_dev write cmb 4 0x10 0x11223344
	touch_dev write cmb 8 0x18 0x5566778899aabbcc
	touch_dev read cmb 4 0x10
	assert_value 0x11223344
	touch_dev read cmb 8 0x18
	assert_value 0x5566778899aabbcc
	touch_dev read cmb 2 0x12
	assert_value 0x1122
	assert_stat read 3
	assert_stat write 2
	assert_stat stepped 0
	if [ "$MMIO_EL" = 2 ]; then
		assert_stat syndrome 5
	else
		assert_stat syndrome 0
	fi
}
