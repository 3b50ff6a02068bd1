# A built-in driver traced from boot: e1000's probe against QEMU's record of
# the device from its first access; its 128k BAR as two halves, which the
# set merges.
TIER=quick
TESTS="boot/capture.bats"
ARGS="mmiotrace.ranges=64k@$E1000_BAR0,64K@$(printf 0x%x $((E1000_BAR0 + 0x10000))) trace_event=mmiotrace:*"
ORACLE=yes
EST=40
