# capture.boot on arm64 (-M virt, the kernel at EL1): e1000e, built in,
# traced from its probe's first access; its 128k BAR as two halves.
ARCH=arm64
TIER=quick
TESTS="boot/capture.bats"
ARGS="mmiotrace.ranges=64k@$E1000_BAR0,64K@$(printf 0x%x $((E1000_BAR0 + 0x10000))) trace_event=mmiotrace:*"
ENV="MMIO_EL=1"
ORACLE=yes
EST=90
