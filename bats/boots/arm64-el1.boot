# make check-arm64: the guest tests that are not x86's, on
# qemu-system-aarch64 -M virt (TCG, -cpu max) with the kernel at EL1,
# where TCG gives a data abort no instruction syndrome (ISV): every traced
# access goes through the tracer's A64 decoder. e1000.bats traces e1000e,
# emulate-a64.bats the A64 load/store forms; x86's tests stay in make check.
ARCH=arm64
TIER=quick
TESTS="ranges.bats overrides.bats events.bats badinput.bats markers.bats stats.bats subpage.bats onoff.bats maplines.bats maps_only.bats trace_pc.bats unmap.bats existing.bats mmiotouch.bats e1000.bats faults.bats cpus.bats concurrency.bats mmioctl.bats mmioctl-events.bats decode.bats fuzz.bats emulate-a64.bats kunit-a64.bats hugepages.bats scale.bats"
ENV="MMIO_EL=1"
TIMEOUT=1800
TEST_TIMEOUT=300
ORACLE=yes
DECODE=yes
EST=900
