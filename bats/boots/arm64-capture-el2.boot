# arm64-capture.boot with the kernel at EL2 under VHE: the probe's
# accesses performed from the abort's syndrome.
ARCH=arm64
TIER=quick
TESTS="boot/capture.bats"
ARGS="mmiotrace.ranges=64k@$E1000_BAR0,64K@$(printf 0x%x $((E1000_BAR0 + 0x10000))) trace_event=mmiotrace:*"
QEMU="-machine virtualization=on"
ENV="MMIO_EL=2"
ORACLE=yes
EST=90
