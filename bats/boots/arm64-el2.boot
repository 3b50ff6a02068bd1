# make check-arm64: arm64-el1.boot's tests with the kernel at EL2 under VHE
# (virt's virtualization=on), where an abort's syndrome has ISV for a load
# or store of one register without writeback: the tracer takes those from
# ESR_EL2 and decodes the rest.
ARCH=arm64
TIER=quick
TESTS="ranges.bats overrides.bats events.bats badinput.bats markers.bats stats.bats subpage.bats onoff.bats maplines.bats maps_only.bats trace_pc.bats unmap.bats existing.bats mmiotouch.bats e1000.bats faults.bats cpus.bats concurrency.bats mmioctl.bats mmioctl-events.bats decode.bats fuzz.bats emulate-a64.bats kunit-a64.bats hugepages.bats scale.bats"
QEMU="-machine virtualization=on"
ENV="MMIO_EL=2"
TIMEOUT=1800
TEST_TIMEOUT=300
ORACLE=yes
DECODE=yes
EST=900
